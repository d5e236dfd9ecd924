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
