package v8

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
)

var errBusy = errors.New("busy")

type Lock struct {
	rdb redis.Cmdable
	key string
}

func (l *Lock) TryLock(ctx context.Context) bool {
	if err := l.rdb.SetNX(ctx, l.key, "t", time.Minute).Err(); err != nil { // want `only the error of SetNX is checked`
		return false
	}
	return true
}

func (l *Lock) Unlock(ctx context.Context) {
	l.rdb.Del(ctx, l.key)
}

func setArgs(ctx context.Context, rdb *redis.Client, key string) (bool, error) {
	_, err := rdb.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", TTL: time.Minute}).Result() // want `only the busy reply of SetArgs \(redis.Nil\) is handled`
	if err == redis.Nil {
		return false, nil
	}
	defer rdb.Del(ctx, key)
	return true, nil
}

// A Lock method that answers with a read of the key after SetNX: its name
// says its bool is "acquired", and busy returns false.
type Locker struct {
	Key, Value string
	Conn       redis.UniversalClient
	Ctx        context.Context
}

func (o *Locker) Lock() (bool, error) {
	_, err := o.Conn.SetNX(o.Ctx, o.Key, o.Value, time.Minute).Result() // want `only the error of SetNX is checked: a held lock is false with a nil error, so this runs without the lock; check the bool too$`
	if err != nil {
		return false, err
	}
	get, err := o.Conn.Get(o.Ctx, o.Key).Result()
	if err != nil {
		return false, err
	}
	return get != "" && get == o.Value, nil
}

func (o *Locker) UnLock() error { return o.Conn.Del(o.Ctx, o.Key).Err() }

// The same in a function whose name and results say nothing of their
// sense: no fix, and the message says why.
func (o *Locker) sync() (bool, error) {
	_, err := o.Conn.SetNX(o.Ctx, o.Key, o.Value, time.Minute).Result() // want `check the bool too \(no fix: the results of sync do not say what to return when busy\)`
	if err != nil {
		return false, err
	}
	return o.Conn.Get(o.Ctx, o.Key).Val() == o.Value, nil
}

// --- silent ---

func correct(ctx context.Context, rdb *redis.Client, key string) error {
	ok, err := rdb.SetNX(ctx, key, "t", time.Minute).Result()
	switch {
	case err != nil:
		return err
	case !ok:
		return errBusy
	}
	defer rdb.Del(ctx, key)
	return nil
}

func correctArgs(ctx context.Context, rdb *redis.Client, key string) error {
	err := rdb.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
	switch err {
	case nil:
	case redis.Nil:
		return errBusy
	default:
		return err
	}
	defer rdb.Del(ctx, key)
	return nil
}
