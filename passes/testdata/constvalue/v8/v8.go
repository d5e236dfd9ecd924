package v8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

// Released through a helper.
func release(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
}

func run(ctx context.Context, rdb *redis.Client, key string, work func()) {
	if !rdb.SetNX(ctx, key, "1", time.Minute).Val() { // want `lock key is acquired with the constant "1"`
		return
	}
	defer release(ctx, rdb, key)
	work()
}

// SetArgs with NX, renewed by PExpire in a goroutine.
func leader(ctx context.Context, rdb *redis.Client) {
	err := rdb.SetArgs(ctx, "leader", "me", redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Err() // want `lock "leader" is acquired with the constant "me"`
	if err != nil {
		return
	}
	go func() {
		for range time.Tick(3 * time.Second) {
			rdb.PExpire(ctx, "leader", 10*time.Second)
		}
	}()
}

// --- silent ---

func dedupe(ctx context.Context, rdb *redis.Client, msgID string) bool {
	return rdb.SetNX(ctx, "seen:"+msgID, "1", time.Hour).Val()
}
