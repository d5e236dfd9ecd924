// Package jobs runs jobs under the cache package's locks.
package jobs

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/twoline/cache"
)

// Run releases with a bare DEL a lock every holder takes with the same
// value.
func Run(ctx context.Context, rdb *redis.Client) {
	if !cache.Lock(ctx, rdb, "lock:jobs") {
		return
	}
	defer rdb.Del(ctx, "lock:jobs")
}

// Nightly checks only the error of its acquire, whose value every holder
// shares, and deletes the lock with a bare DEL.
func Nightly(ctx context.Context, rdb *redis.Client) {
	if rdb.SetNX(ctx, "lock:nightly", "locked", 30).Err() != nil {
		return
	}
	rdb.Del(ctx, "lock:nightly")
}
