// Package rdb gives the project's name to go-redis' command interface, so
// that its users need not import the client.
package rdb

import "github.com/redis/go-redis/v9"

// Client is every command of go-redis.
type Client = redis.Cmdable
