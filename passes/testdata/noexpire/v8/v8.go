package v8

import (
	"context"
	"errors"

	"github.com/go-redis/redis/v8"
)

var errBusy = errors.New("busy")

// SET NX without TTL, DEL later.
func setArgs(ctx context.Context, rdb *redis.Client, key string) error {
	if err := rdb.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "nx", TTL: 0}).Err(); err != nil { // want `lock key is acquired by SetArgs with no TTL`
		return err
	}
	defer rdb.Del(ctx, key)
	return nil
}

// A Locker type: Lock and Unlock of the same field.
type Locker struct {
	rdb  redis.Cmdable
	name string
}

func (l *Locker) Lock(ctx context.Context) error {
	ok, err := l.rdb.SetNX(ctx, l.name, 1, 0).Result() // want `lock l\.name is acquired by SetNX with no TTL and nothing expires it: a dead holder keeps it forever; pass the TTL to SetNX; then its Del must check a random token \(LV201, LV204\)`
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func (l *Locker) Unlock(ctx context.Context) error {
	return l.rdb.Del(ctx, l.name).Err()
}

// --- silent ---

func withTTL(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.SetNX(ctx, key, "t", 1e9).Val() {
		defer rdb.Del(ctx, key)
	}
}

func onceMarker(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, "bootstrap:done", 1, 0).Val()
}
