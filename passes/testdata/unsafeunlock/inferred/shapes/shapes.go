// Shapes around inferred helpers (go-redis v9): a helper that returns a
// release closure, and a WithLock(ctx, key, fn) helper. Both hold the
// acquire and the release in one function: found inline, once, inside
// the helper; their callers are not ops.
package shapes

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

var errBusy = errors.New("busy")

// A helper that returns the release as a closure.
func Acquire(ctx context.Context, key string) (func(), error) {
	ok, err := rdb.SetNX(ctx, "lock:"+key, "1", time.Minute).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errBusy
	}
	return func() { rdb.Del(ctx, "lock:"+key) }, nil // want `Del of lock key "lock:" \+ key does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)`
}

func useClosure(ctx context.Context, id string) error {
	release, err := Acquire(ctx, id)
	if err != nil {
		return err
	}
	defer release()
	return nil
}

// WithLock runs fn under the lock.
func WithLock(ctx context.Context, key string, fn func() error) error {
	token := time.Now().String()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
	return fn()
}

func useWithLock(ctx context.Context, id string) error {
	return WithLock(ctx, "job:"+id, func() error { return nil })
}

func useWithLockTwice(ctx context.Context, id string) error {
	if err := WithLock(ctx, "a:"+id, func() error { return nil }); err != nil {
		return err
	}
	return WithLock(ctx, "b:"+id, func() error { return nil })
}
