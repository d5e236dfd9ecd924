// Package order queues lock commands through package lock's helpers.
package order

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"

	"lockvet.test/xpkg/queue/lock"
)

func Take(ctx context.Context, rdb *redis.Client, id string) (bool, error) {
	var set *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		set = lock.TryLock(ctx, pipe, id)
		lock.KeepLock(ctx, pipe, id) // want `KeepLock \(Expire at lock/lock\.go:21\) in the same transaction as TryLock runs even when it lost, on another owner's lock id; set the TTL in the SetNX inside TryLock`
		return nil
	})
	if err != nil {
		return false, err
	}
	return set.Val(), nil
}

func TakeRedigo(c redigo.Conn, id string) error {
	c.Send("MULTI")
	lock.SendLock(c, id)
	lock.SendTTL(c, id) // want `SendTTL \(EXPIRE at lock/lock\.go:44\) in the same transaction as SendLock runs even when it lost, on another owner's lock id; set the TTL in the SETNX inside SendLock`
	_, err := c.Do("EXEC")
	return err
}

// --- silent ---

// A rate limiter: INCR and EXPIRE through the helpers.
func Allow(ctx context.Context, rdb *redis.Client, user string) bool {
	var n *redis.IntCmd
	rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		n = lock.Hit(ctx, pipe, user)
		lock.Window(ctx, pipe, user, time.Minute)
		return nil
	})
	return n.Val() <= 100
}

// An idempotency marker with its TTL, and its TTL renewed.
func Record(ctx context.Context, rdb *redis.Client, id string) bool {
	var seen *redis.BoolCmd
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		seen = lock.Mark(ctx, pipe, id)
		pipe.Expire(ctx, "seen:"+id, 48*time.Hour)
		return nil
	})
	return seen.Val()
}

// The lock in one transaction, its TTL in the next.
func TwoTx(ctx context.Context, rdb *redis.Client, id string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		lock.TryLock(ctx, pipe, id)
		return nil
	})
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		lock.KeepLock(ctx, pipe, id)
		return nil
	})
}
