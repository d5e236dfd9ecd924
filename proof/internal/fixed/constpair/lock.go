// Package constpair is the LV204 (constvalue) proof shape of a helper
// pair: lock writes a constant and unlock deletes the key by a bare DEL,
// in two functions. Under proof/internal/buggy as lockvet reports it,
// under proof/internal/fixed as lockvet -fix rewrites it (lock returns a
// token, unlock takes it, WithLock passes it on).
package constpair

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

// unlockScript deletes a lock only while it still holds the token it was
// acquired with (KEYS[1] the lock key, ARGV[1] the token).
var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func lock(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration) (bool, string, error) {
	token := rand.Text()
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	return ok, token, err
}

func unlock(ctx context.Context, rdb *redis.Client, key string, token string) error {
	return unlockScript.Run(ctx, rdb, []string{key}, token).Err()
}

// WithLock runs work while it holds the lock on key. It reports false,
// without running work, when another process holds the lock.
func WithLock(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration, work func()) (bool, error) {
	ok, token, err := lock(ctx, rdb, key, ttl)
	if err != nil || !ok {
		return false, err
	}
	defer unlock(ctx, rdb, key, token)
	work()
	return true, nil
}
