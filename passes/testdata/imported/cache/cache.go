// Package cache holds lock helpers used from another package.
package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func Take(ctx context.Context, key string) (bool, error) {
	return rdb.SetNX(ctx, key, "1", 10*time.Second).Result()
}

func Drop(ctx context.Context, key string) error {
	return rdb.Del(ctx, key).Err()
}
