// Package multibatch takes a lock per element of a batch with no TTL,
// returns the keys it took, and releases them in its counterpart.
package multibatch

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

const prefix = "lock:"

func LockKeys(ctx context.Context, rdb *redis.Client, keys []string, bucket int64) ([]string, error) {
	var acquired []string
	for _, key := range keys {
		lockKey := fmt.Sprintf("%s%s:%d", prefix, key, bucket)
		ok, err := rdb.SetNX(ctx, lockKey, "1", 0).Result() // want `lock lockKey is acquired by SetNX with no TTL and nothing expires it`
		if err != nil || !ok {
			continue
		}
		acquired = append(acquired, lockKey)
	}
	return acquired, nil
}

func UnlockKeys(ctx context.Context, rdb *redis.Client, lockKeys []string) {
	for _, lockKey := range lockKeys {
		rdb.Del(ctx, lockKey)
	}
}

// --- silent ---

// Markers of a batch returned to the caller, and a cleanup that is no
// counterpart of it (its name says nothing of a lock).
func MarkKeys(ctx context.Context, rdb *redis.Client, keys []string) []string {
	var marked []string
	for _, key := range keys {
		k := "seen:" + key
		if rdb.SetNX(ctx, k, "1", 0).Val() {
			marked = append(marked, k)
		}
	}
	return marked
}

func Purge(ctx context.Context, rdb *redis.Client, keys []string) {
	for _, k := range keys {
		rdb.Del(ctx, k)
	}
}

// The same released in one DEL of the slice.
func LockAll(ctx context.Context, rdb *redis.Client, keys []string) []string {
	var acquired []string
	for _, key := range keys {
		lockKey := prefix + "all:" + key
		if rdb.SetNX(ctx, lockKey, "1", 0).Val() { // want `lock lockKey is acquired by SetNX with no TTL and nothing expires it`
			acquired = append(acquired, lockKey)
		}
	}
	return acquired
}

func UnlockAll(ctx context.Context, rdb *redis.Client, lockKeys []string) {
	rdb.Del(ctx, lockKeys...)
}

// A batch of markers with no TTL, never released: no lock.
func SeenAll(ctx context.Context, rdb *redis.Client, keys []string) int {
	n := 0
	for _, key := range keys {
		if rdb.SetNX(ctx, "seen:all:"+key, "1", 0).Val() {
			n++
		}
	}
	return n
}
