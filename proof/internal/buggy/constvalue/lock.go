// Package constvalue is the LV204 (constvalue) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it.
package constvalue

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// WithLock runs work while it holds the lock on key. It reports false,
// without running work, when another process holds the lock.
func WithLock(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration, work func()) (bool, error) {
	ok, err := rdb.SetNX(ctx, key, "1", ttl).Result()
	if err != nil || !ok {
		return false, err
	}
	defer rdb.Del(ctx, key)
	work()
	return true, nil
}
