// Package lock is the Redis lock the services are meant to use: one SET NX
// with a TTL to take it, and compare-and-delete / compare-and-pexpire Lua
// scripts so that only the owner releases or extends it.
package lock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	// ErrBusy means another process holds the lock.
	ErrBusy = errors.New("lock: busy")
	// ErrNotHeld means the lock expired or was taken over by another owner.
	ErrNotHeld = errors.New("lock: not held")
)

const releaseLua = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`

const extendLua = `
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`

var (
	releaseScript = redis.NewScript(releaseLua)
	extendScript  = redis.NewScript(extendLua)
)

// Lock is a held lock.
type Lock struct {
	rdb   redis.Cmdable
	key   string
	token string
}

// Obtain takes the lock on key for ttl, or returns ErrBusy.
func Obtain(ctx context.Context, rdb redis.Cmdable, key string, ttl time.Duration) (*Lock, error) {
	token, err := NewToken()
	if err != nil {
		return nil, err
	}
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBusy
	}
	return &Lock{rdb: rdb, key: key, token: token}, nil
}

// Token is the random value that identifies this owner.
func (l *Lock) Token() string { return l.token }

// Release deletes the lock if it is still ours.
func (l *Lock) Release(ctx context.Context) error {
	return Release(ctx, l.rdb, l.key, l.token)
}

// Extend resets the TTL if the lock is still ours.
func (l *Lock) Extend(ctx context.Context, ttl time.Duration) error {
	n, err := extendScript.Run(ctx, l.rdb, []string{l.key}, l.token, ttl.Milliseconds()).Int64()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}

// Release deletes key if its value is still token.
func Release(ctx context.Context, rdb redis.Scripter, key, token string) error {
	n, err := releaseScript.Run(ctx, rdb, []string{key}, token).Int64()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotHeld
	}
	return nil
}

// NewToken returns a random owner token.
func NewToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
