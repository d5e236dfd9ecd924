// Package constpair is the LV204 (constvalue) proof shape of a helper
// pair: lock writes a constant and unlock deletes the key by a bare DEL,
// in two functions. Under proof/internal/buggy as lockvet reports it,
// under proof/internal/fixed as lockvet -fix rewrites it (lock returns a
// token, unlock takes it, WithLock passes it on).
package constpair

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func lock(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration) (bool, error) {
	return rdb.SetNX(ctx, key, "1", ttl).Result()
}

func unlock(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Del(ctx, key).Err()
}

// WithLock runs work while it holds the lock on key. It reports false,
// without running work, when another process holds the lock.
func WithLock(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration, work func()) (bool, error) {
	ok, err := lock(ctx, rdb, key, ttl)
	if err != nil || !ok {
		return false, err
	}
	defer unlock(ctx, rdb, key)
	work()
	return true, nil
}
