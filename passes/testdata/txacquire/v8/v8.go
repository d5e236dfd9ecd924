package v8

import (
	"context"
	"fmt"
	"time"

	"github.com/go-redis/redis/v8"
)

const lockTTL = 15 * time.Second

// TxPipelined on a *redis.Client.
func acquire(ctx context.Context, rdb *redis.Client, name, token string) (bool, error) {
	key := "lock:" + name
	var ok *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		ok = pipe.SetNX(ctx, key, token, 0)
		pipe.Expire(ctx, key, lockTTL) // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
		return nil
	})
	if err != nil {
		return false, err
	}
	return ok.Val(), nil
}

type locker struct {
	rdb redis.UniversalClient
	key string
}

// Pipeline value closed by a deferred Close, struct field key.
func (l *locker) lock(ctx context.Context, token string) (bool, error) {
	pipe := l.rdb.Pipeline()
	defer pipe.Close()
	ok := pipe.SetNX(ctx, l.key, token, 0)
	pipe.Expire(ctx, l.key, lockTTL) // want `Expire in the same pipeline as SetNX runs even when it lost, on another owner's lock l\.key; pass the TTL to SetNX`
	if _, err := pipe.Exec(ctx); err != nil {
		return false, err
	}
	return ok.Val(), nil
}

// TxPipeline value, SetArgs with NX and no TTL, Sprintf key, cluster client.
func acquireArgs(ctx context.Context, rdb *redis.ClusterClient, id int64, token string) error {
	pipe := rdb.TxPipeline()
	set := pipe.SetArgs(ctx, fmt.Sprintf("lock:%d", id), token, redis.SetArgs{Mode: "NX"})
	pipe.PExpire(ctx, fmt.Sprintf("lock:%d", id), 500*time.Millisecond) // want `PExpire in the same transaction as SetArgs runs even when it lost, on another owner's lock fmt\.Sprintf\("lock:%d", id\); pass the TTL to SetArgs`
	_, _ = pipe.Exec(ctx)
	return set.Err()
}

// EXPIRE queued first, interface-typed client.
func expireFirst(ctx context.Context, rdb redis.Cmdable, key string) bool {
	var ok *redis.BoolCmd
	rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Expire(ctx, key, lockTTL) // want `Expire before SetNX in the same pipeline expires nothing when the key is free, so the lock key is held forever; pass the TTL to SetNX`
		ok = pipe.SetNX(ctx, key, "1", 0)
		return nil
	})
	return ok.Val()
}

// The queued EXPIRE's error checked (it is nil until Exec).
func errChecked(ctx context.Context, rdb *redis.Ring, key, token string) (bool, error) {
	var ok *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		ok = pipe.SetNX(ctx, key, token, 0)
		if err := pipe.Expire(ctx, key, lockTTL).Err(); err != nil { // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
			return err
		}
		return nil
	})
	return ok.Val(), err
}

// --- reported, no fix ---

// EXPIREAT: an absolute time cannot become SetNX's duration in place.
func expireAt(ctx context.Context, rdb *redis.Client, key string, until time.Time) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, "t", 0)
		pipe.ExpireAt(ctx, key, until) // want `ExpireAt in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
		return nil
	})
}

// SetArgs with KeepTTL: a TTL next to KEEPTTL is a syntax error.
func keepTTL(ctx context.Context, rdb *redis.Client, key string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", KeepTTL: true})
		pipe.Expire(ctx, key, lockTTL) // want `Expire in the same transaction as SetArgs runs even when it lost, on another owner's lock key; pass the TTL to SetArgs`
		return nil
	})
}

// --- silent ---

func correct(ctx context.Context, rdb *redis.Client, key string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, "t", lockTTL)
		return nil
	})
}

// The queued SETNX is discarded before EXPIRE is queued.
func discarded(ctx context.Context, rdb *redis.Client, key string) {
	pipe := rdb.TxPipeline()
	pipe.SetNX(ctx, key, "t", 0)
	pipe.Discard()
	pipe.Expire(ctx, key, lockTTL)
	pipe.Exec(ctx)
}

func otherKey(ctx context.Context, rdb *redis.Client, key string) {
	pipe := rdb.TxPipeline()
	pipe.SetNX(ctx, key, "t", 0)
	pipe.Expire(ctx, "stats:"+key, lockTTL)
	pipe.Exec(ctx)
}

func rate(ctx context.Context, rdb *redis.Client, ip string) {
	rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Incr(ctx, "rate:"+ip)
		pipe.Expire(ctx, "rate:"+ip, time.Minute)
		return nil
	})
}

func cacheWrite(ctx context.Context, rdb *redis.Client, key, val string) {
	pipe := rdb.Pipeline()
	pipe.Set(ctx, key, val, 0)
	pipe.Expire(ctx, key, time.Hour)
	pipe.Exec(ctx)
}

func twoPipelines(ctx context.Context, rdb *redis.Client, key string) {
	p1 := rdb.TxPipeline()
	p1.SetNX(ctx, key, "t", 0)
	p2 := rdb.TxPipeline()
	p2.Expire(ctx, key, lockTTL)
	p1.Exec(ctx)
	p2.Exec(ctx)
}
