// Package worker runs jobs; its test takes the pair's lock.
package worker

// Name is the worker's lock name.
const Name = "worker"
