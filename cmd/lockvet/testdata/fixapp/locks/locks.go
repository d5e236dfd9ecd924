// Package locks is a helper pair that the module's other packages call:
// every holder writes "locked" and the release is a bare DEL (LV204,
// LV201). The fix makes AcquireLock return a token and ReleaseLock take
// it, and edits the callers in package coupons.
package locks

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var ctx = context.Background()

// AcquireLock takes key for ttl.
func AcquireLock(rdb *redis.Client, key string, ttl time.Duration) bool {
	return rdb.SetNX(ctx, key, "locked", ttl).Val()
}

// ReleaseLock gives key up.
func ReleaseLock(rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
}
