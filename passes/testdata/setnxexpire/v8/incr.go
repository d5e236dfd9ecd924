package v8

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
)

var errBusy = errors.New("busy")

func work(context.Context) error { return nil }

// INCR as a lock on go-redis v8: a later caller's reply is above 1.
func incrGreater(ctx context.Context, rdb *redis.Client, key string) error {
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return err
	}
	if n > 1 {
		return errBusy
	}
	rdb.Expire(ctx, key, time.Minute) // want `Expire after Incr acquired key without a TTL`
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// A switch on the reply.
func incrSwitch(ctx context.Context, rdb *redis.Client, key string) error {
	switch rdb.Incr(ctx, key).Val() {
	case 1:
	default:
		return errBusy
	}
	rdb.Expire(ctx, key, time.Minute) // want `Expire after Incr acquired key without a TTL`
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// --- silent ---

// A counter with a limit of 10: not a lock.
func limit(ctx context.Context, rdb *redis.Client, key string) error {
	if rdb.Incr(ctx, key).Val() > 10 {
		return errBusy
	}
	rdb.Expire(ctx, key, time.Minute)
	defer rdb.Del(ctx, key)
	return work(ctx)
}
