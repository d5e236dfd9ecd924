// Calls of inferred acquire helpers (go-redis v9): the outcome the helper
// returns is read at the call site as a client's would be.
package v9

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

var errBusy = errors.New("busy")

func Lock(ctx context.Context, key string) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+key, "1", 10*time.Second).Result()
}

func Unlock(ctx context.Context, key string) error {
	return rdb.Del(ctx, "lock:"+key).Err()
}

// --- reported ---

func order(ctx context.Context, id string) error {
	if _, err := Lock(ctx, id); err != nil { // want `only the error of Lock is checked`
		return err
	}
	defer Unlock(ctx, id)
	return nil
}

func orderDropped(ctx context.Context, id string) {
	Lock(ctx, id) // want `the reply of Lock is discarded`
	defer Unlock(ctx, id)
}

// A helper of the helper is summarized too.
func LockOrder(ctx context.Context, id string) (bool, error) {
	return Lock(ctx, "order:"+id)
}

func twoLevels(ctx context.Context, id string) error {
	_, err := LockOrder(ctx, id) // want `only the error of LockOrder is checked`
	return err
}

// Generic receiver.
type Store[T any] struct{ c *redis.Client }

func (s *Store[T]) TryLock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	return s.c.SetNX(ctx, key, "1", ttl).Result()
}

func generic(ctx context.Context, s *Store[string], id string) error {
	_, err := s.TryLock(ctx, id, time.Minute) // want `only the error of TryLock is checked`
	return err
}

// --- silent ---

func orderOK(ctx context.Context, id string) error {
	ok, err := Lock(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer Unlock(ctx, id)
	return nil
}

// An idempotency marker: SET NX with no release, not named as a lock.
func MarkSent(ctx context.Context, id string) (bool, error) {
	return rdb.SetNX(ctx, "sent:"+id, 1, 24*time.Hour).Result()
}

func send(ctx context.Context, id string) error {
	_, err := MarkSent(ctx, id)
	return err
}

// Through a function value or an interface: not inferred (declare them).
type Locker interface {
	Lock(ctx context.Context, key string) (bool, error)
}

func viaValue(ctx context.Context, id string) error {
	f := Lock
	_, err := f(ctx, id)
	return err
}

func viaInterface(ctx context.Context, l Locker, id string) error {
	_, err := l.Lock(ctx, id)
	return err
}

// The helper does not return the outcome: the finding is inside it, not
// again at the call.
func LockQuiet(ctx context.Context, key string) error {
	rdb.SetNX(ctx, "q:"+key, "1", time.Second) // want `the reply of SetNX is discarded`
	return nil
}

func quiet(ctx context.Context, id string) error {
	return LockQuiet(ctx, id)
}

// --- reported: fail-open at the call site ---

func failOpen(ctx context.Context, id string) error {
	ok, err := Lock(ctx, id) // want `when Lock fails, this path still runs the work and the release without the lock; stop on the error`
	if err == nil && !ok {
		return errBusy
	}
	defer Unlock(ctx, id)
	return nil
}
