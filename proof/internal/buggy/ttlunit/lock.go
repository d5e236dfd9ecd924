// Package ttlunit is the LV104 (ttlunit) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it (AcquireUntyped has no automatic fix: whether
// 30 meant seconds or milliseconds is the author's call).
package ttlunit

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// AcquireUntyped takes the lock on key for 30 (seconds, its author meant).
func AcquireUntyped(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	return rdb.SetNX(ctx, key, token, 30).Result()
}

// AcquireSeconds takes the lock on key for ttl.
func AcquireSeconds(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) (bool, error) {
	return rdb.SetNX(ctx, key, token, time.Duration(ttl.Seconds())).Result()
}

var extend = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// Extend extends the lock on key by ttl if token still holds it.
func Extend(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) (int64, error) {
	return extend.Run(ctx, rdb, []string{key}, token, ttl).Int64()
}
