// Package multikey takes one lock per element of a slice, with no TTL,
// and releases each in a loop over the same slice.
package multikey

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func lockAll(ctx context.Context, rdb *redis.Client, keys []string, work func()) {
	for _, k := range keys {
		rdb.SetNX(ctx, "lock:"+k, "1", 0) // want `lock "lock:" \+ k is acquired by SetNX with no TTL and nothing expires it`
	}
	work()
	for _, k := range keys {
		rdb.Del(ctx, "lock:"+k)
	}
}

// --- silent ---

// With a TTL.
func lockAllTTL(ctx context.Context, rdb *redis.Client, keys []string, work func()) {
	for _, k := range keys {
		rdb.SetNX(ctx, "lease:"+k, "1", time.Minute)
	}
	work()
	for _, k := range keys {
		rdb.Del(ctx, "lease:"+k)
	}
}

// Set-once markers of a batch, never released.
func markAll(ctx context.Context, rdb *redis.Client, ids []string) {
	for _, id := range ids {
		rdb.SetNX(ctx, "seen:"+id, "1", 0)
	}
}
