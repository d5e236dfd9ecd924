// Package mirror checks, then sets, a lock key through the project's own
// Redis layer (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"errors"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"lockvet.test/redisops/mirror/store"
)

var errBusy = errors.New("busy")

// The check-then-set of the inline tests (checkthenset/v9), through Store.
func TryLock(ctx context.Context, s store.Store, name, tok string) error {
	if err := s.Get(ctx, "lock:"+name).Err(); err != goredis.Nil {
		return errBusy
	}
	return s.Set(ctx, "lock:"+name, tok, 30*time.Second).Err() // want `Set of "lock:" \+ name after a GET found it missing`
}

func Unlock(ctx context.Context, s store.Store, name string) error {
	return s.Del(ctx, "lock:"+name).Err()
}

// --- silent ---

// Plain results do not say what a missing key reads as ("" or an
// error): no finding.
func plain(b store.Backend, key, tok string) (bool, error) {
	if v, err := b.Get(key); err != nil || v != "" {
		return false, err
	}
	if err := b.Set(key, tok); err != nil {
		return false, err
	}
	b.Expire(key, 30)
	return true, nil
}

func unlockPlain(b store.Backend, key string) error { return b.Del(key) }

// A cache fill: GET misses, SET writes the computed value; no claim.
func fill(ctx context.Context, s store.Store, b store.Backend, key string) (string, error) {
	v, err := b.Get(key)
	if err == nil && v != "" {
		return v, nil
	}
	v = time.Now().String()
	return v, b.Set(key, v)
}
