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

// renewScript extends a lock's TTL (ARGV[2], in milliseconds) only while
// the key still holds this process's token (ARGV[1]).
var renewScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// unlockScript deletes a lock only while it still holds the token it was
// acquired with (KEYS[1] the lock key, ARGV[1] the token).
var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	RDB   *redis.Client
	Key   string
	Token string
	TTL   time.Duration
}

// TryLock takes the lock if it is free.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	ok, err := m.RDB.SetNX(ctx, m.Key, m.Token, m.TTL).Result()
	if err != nil {
		return false, err
	}
	return ok, nil
}

// Unlock releases the lock; it reports whether it deleted the key.
func (m *Mutex) Unlock(ctx context.Context) (bool, error) {
	n, err := unlockScript.Run(ctx, m.RDB, []string{m.Key}, m.Token).Int64()
	return n == 1, err
}

// Refresh extends the lock by m.TTL; it reports whether it did.
func (m *Mutex) Refresh(ctx context.Context) (bool, error) {
	return renewScript.Run(ctx, m.RDB, []string{m.Key}, m.Token, m.TTL.Milliseconds()).Bool()
}
