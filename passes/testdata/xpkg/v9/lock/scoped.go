package lock

import (
	"context"
	"errors"
	"time"
)

// WithLock runs fn while holding key: it releases what it takes, so its
// callers give it a key and a TTL and hold nothing after it returns.
func WithLock(ctx context.Context, key string, ttl time.Duration, fn func() error) error { // want WithLock:"acquire-funcs:key=1,ttl=2,unit=duration scoped"
	ok, err := rdb.SetNX(ctx, "with:"+key, "1", ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	defer rdb.Del(ctx, "with:"+key)
	return fn()
}

// WithoutTTL takes key with no TTL: its LV103 is in it, and it has no
// summary (a call site has nothing to add).
func WithoutTTL(ctx context.Context, key string, fn func() error) error {
	ok, err := rdb.SetNX(ctx, "without:"+key, "1", 0).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, "without:"+key)
	return fn()
}

// Swap deletes another key than it takes: no summary.
func Swap(ctx context.Context, key string, ttl time.Duration) error {
	if err := rdb.SetNX(ctx, "a:"+key, "1", ttl).Err(); err != nil {
		return err
	}
	return rdb.Del(ctx, "b:"+key).Err()
}
