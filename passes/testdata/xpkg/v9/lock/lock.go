// Package lock holds a service's lock helpers on go-redis v9; the order
// and billing packages call them.
package lock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

// Lock takes key for ttl.
func Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) { // want Lock:"acquire-funcs:key=1,ttl=2"
	return rdb.SetNX(ctx, key, "1", ttl).Result()
}

// Unlock deletes key, whoever holds it.
func Unlock(ctx context.Context, key string) error { // want Unlock:"release-funcs:key=1"
	return rdb.Del(ctx, key).Err()
}

// Forget deletes key, whoever holds it. Its name does not pair it with
// Lock here: the callers' packages pair the two, and the finding is at
// their call.
func Forget(ctx context.Context, key string) error { // want Forget:"release-funcs:key=1"
	return rdb.Del(ctx, key).Err()
}

// Cached reads a cache entry: no lock operation, no fact.
func Cached(ctx context.Context, key string) string {
	return rdb.Get(ctx, key).Val()
}

// grab is not exported: callers elsewhere cannot name it, no fact.
func grab(ctx context.Context, key string) bool {
	return rdb.SetNX(ctx, key, "1", time.Minute).Val()
}

var _ = grab
