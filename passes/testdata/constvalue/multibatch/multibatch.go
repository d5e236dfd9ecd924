// Package multibatch takes a lock per element of a batch with a constant
// value and releases the keys through the slice that holds them.
package multibatch

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func withLocks(ctx context.Context, rdb *redis.Client, ids []string, fn func()) {
	var held []string
	for _, id := range ids {
		k := "lock:order:" + id
		if !rdb.SetNX(ctx, k, "1", time.Minute).Val() { // want `lock k is acquired with the constant "1" and released, so no owner check can tell holders apart; use a random token \(no fix: a lock per element of a batch\)`
			break
		}
		held = append(held, k)
	}
	fn()
	rdb.Del(ctx, held...)
}

// --- silent ---

// No TTL: the lock cannot pass to another holder while this one holds
// it (LV103's finding, not this one's).
func withLocksNoTTL(ctx context.Context, rdb *redis.Client, ids []string, fn func()) {
	var held []string
	for _, id := range ids {
		k := "lock:item:" + id
		if !rdb.SetNX(ctx, k, "1", 0).Val() {
			break
		}
		held = append(held, k)
	}
	fn()
	rdb.Del(ctx, held...)
}

// A cache written per item, deleted in one DEL: no claim.
func fill(ctx context.Context, rdb *redis.Client, items map[string]string) {
	var keys []string
	for k, v := range items {
		key := "cache:" + k
		rdb.Set(ctx, key, v, time.Minute)
		keys = append(keys, key)
	}
	rdb.Del(ctx, keys...)
}

// Markers per item deleted in one DEL only when the work fails.
func process(ctx context.Context, rdb *redis.Client, ids []string, fn func([]string) error) error {
	var claimed []string
	for _, id := range ids {
		k := "done:" + id
		if rdb.SetNX(ctx, k, "1", 24*time.Hour).Val() {
			claimed = append(claimed, k)
		}
	}
	if err := fn(claimed); err != nil {
		rdb.Del(ctx, claimed...)
		return err
	}
	return nil
}
