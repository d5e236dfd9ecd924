package v8

import (
	"context"

	"github.com/go-redis/redis/v8"
)

func delKey(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
}

// GET, compare, then a helper that deletes.
func unlockViaHelper(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.Get(ctx, key).Val() == token {
		delKey(ctx, rdb, key) // want `delKey deletes key \(Del\) after a separate GET compare, so it can delete another holder's lock; compare and delete in one step`
	}
}

// --- silent ---

// A cache entry compared with a marker and dropped: not a lock.
func dropStale(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.Get(ctx, key).Val() == "stale" {
		delKey(ctx, rdb, key)
	}
}
