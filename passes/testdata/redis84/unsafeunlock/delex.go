// Package delex is run with lockvet configured for Redis 8.4: releases get
// DelExArgs IFEQ as the first fix, where the client has it.
package delex

import (
	"context"
	"time"

	v8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

func withLock(ctx context.Context, rdb *redis.Client, key, token string, fn func()) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
	fn()
}

// DelExArgs returns an *IntCmd like Del: the reply keeps its type; the
// script's reply is read with Int64.
func release(ctx context.Context, rdb redis.UniversalClient, key, token string) (int64, error) {
	rdb.SetNX(ctx, key, token, time.Minute)
	return rdb.Unlink(ctx, key).Result() // want `Unlink of lock key key does not check the owner`
}

// The reply used as an *IntCmd: only DelExArgs keeps it compiling.
func cmd(ctx context.Context, rdb *redis.Client, key, token string) *redis.IntCmd {
	rdb.SetNX(ctx, key, token, time.Minute)
	return rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
}

// go-redis v8 has no DelExArgs: the script only.
func older(ctx context.Context, rdb *v8.Client, key, token string) {
	if rdb.SetNX(ctx, key, token, time.Minute).Val() {
		defer rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
	}
}
