// Package cache takes the locks of the jobs package.
package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// TryLock takes key for 30 s. Two findings on one line: the TTL has no
// unit (LV104), and only the error of SetNX is read (LV105).
func TryLock(ctx context.Context, rdb *redis.Client, key, token string) error {
	if err := rdb.SetNX(ctx, key, token, 30).Err(); err != nil {
		return err
	}
	return nil
}

// Lock takes key with no TTL and gives it one in a second command.
func Lock(ctx context.Context, rdb *redis.Client, key string) bool {
	ok := rdb.SetNX(ctx, key, "locked", 0).Val()
	if ok {
		rdb.Expire(ctx, key, time.Minute)
	}
	return ok
}
