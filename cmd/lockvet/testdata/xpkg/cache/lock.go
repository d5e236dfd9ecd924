package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

// Lock takes the lock on key.
func Lock(ctx context.Context, key string) (bool, error) {
	return rdb.SetNX(ctx, key, "1", 10*time.Second).Result()
}

// Unlock releases the lock on key.
func Unlock(ctx context.Context, key string) error {
	return rdb.Del(ctx, key).Err()
}

// Get reads a cache entry.
func Get(ctx context.Context, key string) string {
	return rdb.Get(ctx, key).Val()
}
