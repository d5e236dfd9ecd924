// An acquire helper with no TTL and a second helper that sets it: the
// two round trips are at the call site.
package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func LockKey(ctx context.Context, key, token string) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+key, token, 0).Result()
}

func SetTTL(ctx context.Context, key string, ttl time.Duration) error {
	return rdb.Expire(ctx, "lock:"+key, ttl).Err()
}

func job(ctx context.Context, id, token string) error {
	ok, err := LockKey(ctx, id, token)
	if err != nil || !ok {
		return err
	}
	return SetTTL(ctx, id, time.Minute) // want `SetTTL after LockKey acquired id without a TTL`
}

// --- silent: the helpers build different keys ---

func OtherTTL(ctx context.Context, key string, ttl time.Duration) error {
	return rdb.Expire(ctx, "other:"+key, ttl).Err()
}

func other(ctx context.Context, id, token string) error {
	ok, err := LockKey(ctx, id, token)
	if err != nil || !ok {
		return err
	}
	return OtherTTL(ctx, id, time.Minute)
}

// A renew helper that fixes the TTL itself, the key in a local.
func KeepLock(ctx context.Context, key string) error {
	k := "lock:" + key
	return rdb.Expire(ctx, k, 30*time.Second).Err()
}

func fixed(ctx context.Context, id, token string) error {
	ok, err := LockKey(ctx, id, token)
	if err != nil || !ok {
		return err
	}
	return KeepLock(ctx, id) // want `KeepLock after LockKey acquired id without a TTL`
}

// --- silent: a fixed-TTL helper on another key ---

func KeepOther(ctx context.Context, key string) error {
	return rdb.Expire(ctx, "other:"+key, 30*time.Second).Err()
}

func fixedOther(ctx context.Context, id, token string) error {
	ok, err := LockKey(ctx, id, token)
	if err != nil || !ok {
		return err
	}
	return KeepOther(ctx, id)
}
