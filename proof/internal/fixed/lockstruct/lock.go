// Package lockstruct is the LV201 (unsafeunlock) proof shape of a lock
// struct: Lock keeps the key in a field of the mutex and writes a random
// value it does not keep, Unlock deletes the field's key by a bare DEL.
// Under proof/internal/buggy as lockvet reports it, under
// proof/internal/fixed as lockvet -fix rewrites it (a token field that
// Lock sets and Unlock compares).
package lockstruct

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

// unlockScript deletes a lock only while it still holds the token it was
// acquired with (KEYS[1] the lock key, ARGV[1] the token).
var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type mutex struct {
	rdb *redis.Client
	key string

	// token is the value Lock acquired the lock with: a release deletes the
	// key only while it still holds it.
	token string
}

func (m *mutex) Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	m.key = key
	m.token = rand.Text()
	return m.rdb.SetNX(ctx, m.key, m.token, ttl).Result()
}

func (m *mutex) Unlock(ctx context.Context) error {
	return unlockScript.Run(ctx, m.rdb, []string{m.key}, m.token).Err()
}

// WithLock runs work while it holds the lock on key. It reports false,
// without running work, when another process holds the lock.
func WithLock(ctx context.Context, rdb *redis.Client, key string, ttl time.Duration, work func()) (bool, error) {
	m := &mutex{rdb: rdb}
	ok, err := m.Lock(ctx, key, ttl)
	if err != nil || !ok {
		return false, err
	}
	defer m.Unlock(ctx)
	work()
	return true, nil
}
