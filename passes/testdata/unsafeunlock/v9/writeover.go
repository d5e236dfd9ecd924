package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Released by overwriting the lock key with a plain SET after the work:
// the same hazard as a bare DEL.
func markDone(ctx context.Context, rdb *redis.Client, key string, work func()) error {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return ErrLocked
	}
	work()
	return rdb.Set(ctx, key, "done", 5*time.Second).Err() // want `Set overwrites lock key key with "done" without checking the owner`
}

func (m *Mutex) ClearByEmpty(ctx context.Context) {
	m.rdb.SetArgs(ctx, m.key, "", redis.SetArgs{TTL: time.Second}) // want `SetArgs overwrites lock key m.key with "" without checking the owner`
}

// --- silent ---

// SET NX, SET XX with GET compared, and the holder writing its own token
// again are not this.
func setNXAgain(ctx context.Context, rdb *redis.Client, key string) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	rdb.SetNX(ctx, key, "done", ttl)
}

func swapChecked(ctx context.Context, rdb *redis.Client, key string) error {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return ErrLocked
	}
	old, err := rdb.SetArgs(ctx, key, "done", redis.SetArgs{Mode: "XX", Get: true, TTL: time.Second}).Result()
	if err == nil && old != token {
		return ErrLocked
	}
	return err
}

func refreshOwn(ctx context.Context, rdb *redis.Client, key string) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	rdb.Set(ctx, key, token, ttl)
}

// A cache key written: no lock evidence.
func cacheWrite(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Set(ctx, "user:"+id, "v", time.Minute)
}
