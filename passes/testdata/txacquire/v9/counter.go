package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A queue counter created with SETNX 0 and given a TTL in one pipeline,
// then moved with INCR and DECR elsewhere: no lock, silent.
func initCount(ctx context.Context, rdb *redis.Client, q string) error {
	pipe := rdb.Pipeline()
	pipe.SetNX(ctx, "queue:count:"+q, 0, 0)
	pipe.Expire(ctx, "queue:count:"+q, time.Hour)
	_, err := pipe.Exec(ctx)
	return err
}

func enqueued(ctx context.Context, rdb *redis.Client, q string) error {
	return rdb.Incr(ctx, "queue:count:"+q).Err()
}

func dequeued(ctx context.Context, rdb *redis.Client, q string) error {
	return rdb.Decr(ctx, "queue:count:"+q).Err()
}

// The same pipeline with a flag value and nothing counting: a lock.
func initLock(ctx context.Context, rdb *redis.Client, q string) error {
	pipe := rdb.Pipeline()
	pipe.SetNX(ctx, "queue:lock:"+q, 1, 0)
	pipe.Expire(ctx, "queue:lock:"+q, time.Hour) // want `Expire in the same pipeline as SetNX runs even when it lost, on another owner's lock "queue:lock:" \+ q; pass the TTL to SetNX`
	_, err := pipe.Exec(ctx)
	return err
}
