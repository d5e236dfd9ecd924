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

type mutex struct {
	rdb *redis.Client
	key string
}

func (m *mutex) Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	m.key = key
	return m.rdb.SetNX(ctx, m.key, rand.Text(), ttl).Result()
}

func (m *mutex) Unlock(ctx context.Context) error {
	return m.rdb.Del(ctx, m.key).Err()
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
