// Package lock has one finding, reported even though package bad is
// broken.
package lock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func tryLock(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil {
		return false, err
	}
	if ok {
		rdb.Expire(ctx, key, time.Minute) // LV101: the finding that must still be reported
	}
	return ok, nil
}
