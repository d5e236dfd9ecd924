package v9

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// A shard lease held by one worker at a time: the same function takes,
// extends or returns it. The WATCH is there, but the commands after the
// compare do not go through MULTI/EXEC, so it guards nothing.

// --- reported ---

// The callback form: Tx.Pipelined is a plain pipeline.
func leaseShard(ctx context.Context, rdb redis.UniversalClient, shard, worker string, ttl time.Duration) (bool, error) {
	key := "shard-lease:" + shard
	got := false
	err := rdb.Watch(ctx, func(tx *redis.Tx) error {
		holder, err := tx.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) {
			// unleased
		} else if err != nil {
			return err
		} else if worker != holder {
			return nil
		}
		_, err = tx.Pipelined(ctx, func(p redis.Pipeliner) error {
			if ttl <= 0 {
				p.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock; Pipelined inside Watch bypasses MULTI/EXEC and the WATCH; use TxPipelined`
			} else {
				p.Set(ctx, key, worker, ttl)
			}
			return nil
		})
		got = err == nil && ttl > 0
		return err
	}, key)
	return got, err
}

// The value form: a pipeline from Tx.Pipeline, sent by Exec.
func returnShard(ctx context.Context, rdb *redis.Client, shard, worker string, keep time.Duration) error {
	key := "shard-lease:" + shard
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		holder, err := tx.Get(ctx, key).Result()
		if err != nil {
			return err
		}
		if holder != worker {
			return nil
		}
		pipe := tx.Pipeline()
		if keep > 0 {
			pipe.Set(ctx, key, worker, keep)
		} else {
			pipe.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock; Pipeline inside Watch bypasses MULTI/EXEC and the WATCH; use TxPipeline`
		}
		_, err = pipe.Exec(ctx)
		return err
	}, key)
}

// --- silent ---

// The same lease with TxPipeline and TxPipelined: MULTI/EXEC, which
// fails if the key changed after the WATCH.
func returnShardTx(ctx context.Context, rdb *redis.Client, shard, worker string, keep time.Duration) error {
	key := "shard-lease:" + shard
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		holder, err := tx.Get(ctx, key).Result()
		if err != nil {
			return err
		}
		if holder != worker {
			return nil
		}
		pipe := tx.TxPipeline()
		if keep > 0 {
			pipe.Set(ctx, key, worker, keep)
		} else {
			pipe.Del(ctx, key)
		}
		_, err = pipe.Exec(ctx)
		return err
	}, key)
}

func leaseShardTx(ctx context.Context, rdb *redis.Client, shard, worker string, ttl time.Duration) error {
	key := "shard-lease:" + shard
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		holder, err := tx.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) {
		} else if err != nil {
			return err
		} else if worker != holder {
			return nil
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			if ttl <= 0 {
				p.Del(ctx, key)
			} else {
				p.Set(ctx, key, worker, ttl)
			}
			return nil
		})
		return err
	}, key)
}

// A session swapped for a new one inside Watch through Pipelined: the
// compared value (the old session) is not what is written, so this is
// not a lease, and nothing names a lock.
func rotateSession(ctx context.Context, rdb *redis.Client, user, old, fresh string) error {
	key := "session:" + user
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		cur, err := tx.Get(ctx, key).Result()
		if err != nil {
			return err
		}
		if cur != old {
			return nil
		}
		_, err = tx.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key)
			p.Set(ctx, "session:"+user+":next", fresh, time.Hour)
			return nil
		})
		return err
	}, key)
}
