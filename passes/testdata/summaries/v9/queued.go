package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Helpers handed a pipeline queue their command on it.
func QueueLock(ctx context.Context, pipe redis.Pipeliner, key string) *redis.BoolCmd { // want `summary QueueLock: acquire key=2 \$ value="1" nottl lock paired queued=1 at v9/queued.go:12`
	return pipe.SetNX(ctx, key, "1", 0) // want `go-redis/v9 acquire SetNX`
}

func QueueTTL(ctx context.Context, pipe redis.Pipeliner, key string) { // want `summary QueueTTL: expire bare key=2 \$ ttl=time.Minute queued=1 at v9/queued.go:16`
	pipe.Expire(ctx, key, time.Minute) // want `go-redis/v9 expire Expire`
}

// Forwarding its own pipeline: queued on it too.
func QueueBoth(ctx context.Context, p redis.Pipeliner, id string) { // want `summary QueueBoth: acquire key=2 \("lock:"\+\$\) value="1" nottl lock paired queued=1 via QueueLock depth=1 at v9/queued.go:12`
	QueueLock(ctx, p, "lock:"+id) // want `inferred acquire QueueLock key="lock:" \+ id nottl scope=pipeline@p`
}

// A helper that sends the pipeline it is handed is no queued helper.
func SendLock(ctx context.Context, pipe redis.Pipeliner, key string) {
	pipe.SetNX(ctx, key, "1", 0) // want `go-redis/v9 acquire SetNX`
	pipe.Exec(ctx)
}

func useQueued(ctx context.Context, rdb *redis.Client, id string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		QueueLock(ctx, pipe, id) // want `inferred acquire QueueLock key=id nottl scope=tx@rdb`
		QueueTTL(ctx, pipe, id)  // want `inferred expire QueueTTL key=id scope=tx@rdb`
		return nil
	})
}
