// Package constvalue is the LV204 (constvalue) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it.
package constvalue

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

// unlockScript deletes a lock only while it still holds the token it was
// acquired with (KEYS[1] the lock key, ARGV[1] the token).
var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// WithLock runs work while it holds the lock on key. It reports false,
// without running work, when another process holds the lock.
func WithLock(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration, work func()) (bool, error) {
	token := rand.Text()
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil || !ok {
		return false, err
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	work()
	return true, nil
}
