// Package rueidis is the rueidis client proof shape: acquire, release and
// renew of one lock, under proof/internal/adapters/buggy as lockvet
// reports them, under proof/internal/adapters/fixed as lockvet -fix
// rewrites them.
package rueidis

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// renewScript extends a lock's TTL (ARGV[2], in milliseconds) only while
// the key still holds this process's token (ARGV[1]).
var renewScript = rueidis.NewLuaScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// unlockScript deletes a lock only while it still holds the token it was
// acquired with (KEYS[1] the lock key, ARGV[1] the token).
var unlockScript = rueidis.NewLuaScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	Client rueidis.Client
	Key    string
	Token  string
	TTL    time.Duration
}

// TryLock takes the lock if it is free.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	err := m.Client.Do(ctx, m.Client.B().Set().Key(m.Key).Value(m.Token).Nx().PxMilliseconds(m.TTL.Milliseconds()).Build()).Error()
	ok := err == nil
	if rueidis.IsRedisNil(err) {
		err = nil
	}
	if err != nil {
		return false, err
	}
	return ok, nil
}

// Unlock releases the lock; it reports whether it deleted the key.
func (m *Mutex) Unlock(ctx context.Context) (bool, error) {
	n, err := unlockScript.Exec(ctx, m.Client, []string{m.Key}, []string{m.Token}).AsInt64()
	return n == 1, err
}

// Refresh extends the lock by m.TTL; it reports whether it did.
func (m *Mutex) Refresh(ctx context.Context) (bool, error) {
	return renewScript.Exec(ctx, m.Client, []string{m.Key}, []string{m.Token, strconv.FormatInt(m.TTL.Milliseconds(), 10)}).AsBool()
}
