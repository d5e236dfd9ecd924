// Package goredis8 is the go-redis v8 client proof shape: acquire,
// release and renew of one lock, under proof/internal/buggy as lockvet
// reports them (LV101, LV201, LV203), under proof/internal/fixed as
// lockvet -fix rewrites them.
package goredis8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	RDB   *redis.Client
	Key   string
	Token string
	TTL   time.Duration
}

// TryLock takes the lock if it is free.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	ok, err := m.RDB.SetNX(ctx, m.Key, m.Token, 0).Result()
	if err != nil {
		return false, err
	}
	if ok {
		m.RDB.Expire(ctx, m.Key, m.TTL)
	}
	return ok, nil
}

// Unlock releases the lock; it reports whether it deleted the key.
func (m *Mutex) Unlock(ctx context.Context) (bool, error) {
	n, err := m.RDB.Del(ctx, m.Key).Result()
	return n == 1, err
}

// Refresh extends the lock by m.TTL; it reports whether it did.
func (m *Mutex) Refresh(ctx context.Context) (bool, error) {
	return m.RDB.PExpire(ctx, m.Key, m.TTL).Result()
}
