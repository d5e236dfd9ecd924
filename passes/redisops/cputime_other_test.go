//go:build !unix

package redisops_test

import "time"

// cpuTime is not measured here; the benchmark reports 0 CPU time.
func cpuTime() time.Duration { return 0 }
