// Package multikey takes one lock per element of a slice and releases
// each in a loop over the same slice.
package multikey

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func lockAll(ctx context.Context, rdb *redis.Client, ids []string, work func() error) error {
	for _, id := range ids {
		ok, err := rdb.SetNX(ctx, "lock:order:"+id, "1", time.Minute).Result()
		if err != nil || !ok {
			return err
		}
	}
	err := work()
	for _, id := range ids {
		rdb.Del(ctx, "lock:order:"+id) // want `Del of lock key "lock:order:" \+ id does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	}
	return err
}

func lockEach(ctx context.Context, rdb *redis.Client, keys []string) {
	for _, k := range keys {
		if !rdb.SetNX(ctx, k, "1", time.Minute).Val() {
			continue
		}
		rdb.Del(ctx, k) // want `Del of lock key k does not check the owner`
	}
}

// --- silent ---

// A batch of cache writes, then their invalidation: no claim is taken.
func refresh(ctx context.Context, rdb *redis.Client, ids []string) {
	for _, id := range ids {
		rdb.Set(ctx, "cache:"+id, "v", time.Minute)
	}
	for _, id := range ids {
		rdb.Del(ctx, "cache:"+id)
	}
}

// Locks on one slice, deletes over another: other keys (and no other
// function takes a lock:item: key).
func other(ctx context.Context, rdb *redis.Client, ids, stale []string) {
	for _, id := range ids {
		rdb.SetNX(ctx, "lock:item:"+id, "1", time.Minute)
	}
	for _, id := range stale {
		rdb.Del(ctx, "lock:item:"+id)
	}
}
