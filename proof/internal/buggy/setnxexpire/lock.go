// Package setnxexpire is the LV101 (setnxexpire) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it.
package setnxexpire

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Acquire takes the lock on key for ttl.
func Acquire(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) (bool, error) {
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil {
		return false, err
	}
	if ok {
		rdb.Expire(ctx, key, ttl)
	}
	return ok, nil
}
