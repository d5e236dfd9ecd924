// Package v9 queues a lock's SETNX and EXPIRE through helpers that take
// the pipeline (a go-redis Pipeliner) from their caller.
package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

// queueLock queues both commands on the caller's pipeline.
func queueLock(ctx context.Context, pipe redis.Pipeliner, key, token string) *redis.BoolCmd {
	set := pipe.SetNX(ctx, key, token, 0)
	pipe.Expire(ctx, key, ttl) // want `Expire in the same pipeline as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
	return set
}

func takeJob(ctx context.Context, rdb *redis.Client, id, token string) (bool, error) {
	var set *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		set = queueLock(ctx, pipe, "job:"+id, token)
		return nil
	})
	if err != nil {
		return false, err
	}
	return set.Val(), nil
}

// tryLock and setTTL each queue one command.
func tryLock(ctx context.Context, pipe redis.Pipeliner, key string) *redis.BoolCmd {
	return pipe.SetNX(ctx, "lock:"+key, "1", 0)
}

func setTTL(ctx context.Context, pipe redis.Pipeliner, key string, d time.Duration) {
	pipe.Expire(ctx, "lock:"+key, d)
}

func keepFor(ctx context.Context, pipe redis.Pipeliner, key string) {
	pipe.Expire(ctx, "lock:"+key, time.Minute)
}

func twoHelpers(ctx context.Context, rdb *redis.Client, id string) (bool, error) {
	var set *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		set = tryLock(ctx, pipe, id)
		setTTL(ctx, pipe, id, ttl) // want `setTTL \(Expire at v9/v9\.go:39\) in the same transaction as tryLock runs even when it lost, on another owner's lock id; set the TTL in the SetNX inside tryLock`
		return nil
	})
	if err != nil {
		return false, err
	}
	return set.Val(), nil
}

func pipelineValue(ctx context.Context, rdb *redis.Client, id string) bool {
	pipe := rdb.Pipeline()
	set := tryLock(ctx, pipe, id)
	keepFor(ctx, pipe, id) // want `keepFor \(Expire at v9/v9\.go:43\) in the same pipeline as tryLock runs even when it lost, on another owner's lock id; set the TTL in the SetNX inside tryLock`
	pipe.Exec(ctx)
	return set.Val()
}

// queueSetNX takes the key as it is; its caller queues the EXPIRE.
func queueSetNX(ctx context.Context, pipe redis.Pipeliner, key string) {
	pipe.SetNX(ctx, key, "1", 0)
}

func helperThenInline(ctx context.Context, rdb *redis.Client, id string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		queueSetNX(ctx, pipe, "job:"+id)
		pipe.Expire(ctx, "job:"+id, ttl) // want `Expire in the same transaction as queueSetNX runs even when it lost, on another owner's lock "job:" \+ id; set the TTL in the SetNX inside queueSetNX`
		return nil
	})
}

// --- silent ---

// A rate limiter: INCR and EXPIRE queued together through a helper.
func countHit(ctx context.Context, pipe redis.Pipeliner, key string, window time.Duration) *redis.IntCmd {
	n := pipe.Incr(ctx, key)
	pipe.Expire(ctx, key, window)
	return n
}

func allow(ctx context.Context, rdb *redis.Client, user string) (bool, error) {
	var n *redis.IntCmd
	_, err := rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		n = countHit(ctx, pipe, "rate:"+user, time.Minute)
		return nil
	})
	return err == nil && n.Val() <= 100, err
}

// INCR in one helper, EXPIRE in another.
func incr(ctx context.Context, pipe redis.Pipeliner, key string) *redis.IntCmd {
	return pipe.Incr(ctx, "lock:"+key)
}

func allowTwo(ctx context.Context, rdb *redis.Client, user string) bool {
	var n *redis.IntCmd
	rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		n = incr(ctx, pipe, user)
		setTTL(ctx, pipe, user, time.Minute)
		return nil
	})
	return n.Val() <= 100
}

// An idempotency marker with its TTL, queued through a helper.
func markSeen(ctx context.Context, pipe redis.Pipeliner, id string) *redis.BoolCmd {
	return pipe.SetNX(ctx, "seen:"+id, "1", 24*time.Hour)
}

func record(ctx context.Context, rdb *redis.Client, id string) bool {
	var seen *redis.BoolCmd
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		seen = markSeen(ctx, pipe, id)
		pipe.HSet(ctx, "events", id, "x")
		return nil
	})
	return seen.Val()
}

// A cache write and its TTL through helpers.
func cacheSet(ctx context.Context, pipe redis.Pipeliner, key, v string) {
	pipe.Set(ctx, "lock:"+key, v, 0)
}

func warm(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		cacheSet(ctx, pipe, id, "x")
		setTTL(ctx, pipe, id, time.Hour)
		return nil
	})
}

// The two helpers on different keys, and in different pipelines.
func otherKey(ctx context.Context, rdb *redis.Client, id, other string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		tryLock(ctx, pipe, id)
		setTTL(ctx, pipe, other, ttl)
		return nil
	})
}

func twoPipelines(ctx context.Context, rdb *redis.Client, id string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		tryLock(ctx, pipe, id)
		return nil
	})
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		setTTL(ctx, pipe, id, ttl)
		return nil
	})
}

// Two pipelines handed to the helpers.
func twoPipes(ctx context.Context, rdb *redis.Client, id string) {
	p1 := rdb.TxPipeline()
	p2 := rdb.TxPipeline()
	tryLock(ctx, p1, id)
	p1.Exec(ctx)
	setTTL(ctx, p2, id, ttl)
	p2.Exec(ctx)
}
