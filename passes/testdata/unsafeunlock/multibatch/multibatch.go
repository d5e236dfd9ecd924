// Package multibatch takes a lock per element of a batch, collects the
// keys it took in a slice, and releases them through that slice, a DEL
// per element in a loop.
package multibatch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/redis/go-redis/v9"
)

func token() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// mlock keeps the keys it took in a field; MUnlock deletes them all.
type mlock struct {
	rdb  *redis.Client
	keys []string
}

func (l *mlock) MLock(ctx context.Context, ttl time.Duration, names ...string) (bool, error) {
	l.keys = nil
	for _, n := range names {
		key := "lock:" + n
		ok, err := l.rdb.SetNX(ctx, key, token(), ttl).Result()
		if err != nil || !ok {
			return false, err
		}
		l.keys = append(l.keys, key)
	}
	return true, nil
}

func (l *mlock) MUnlock(ctx context.Context) {
	for _, k := range l.keys {
		l.rdb.Del(ctx, k) // want `Del of lock key k does not check the owner`
	}
}

// One function: the keys held, released one by one.
func withLocks(ctx context.Context, rdb *redis.Client, ids []string, fn func()) error {
	var held []string
	for _, id := range ids {
		k := "lock:order:" + id
		ok, err := rdb.SetNX(ctx, k, token(), time.Minute).Result()
		if err != nil || !ok {
			break
		}
		held = append(held, k)
	}
	fn()
	for _, k := range held {
		rdb.Del(ctx, k) // want `Del of lock key k does not check the owner`
	}
	return nil
}

// LockKeys returns the keys it took; its counterpart deletes each.
func LockKeys(ctx context.Context, rdb *redis.Client, keys []string) ([]string, error) {
	var acquired []string
	for _, key := range keys {
		lockKey := "lock:row:" + key
		ok, err := rdb.SetNX(ctx, lockKey, token(), 10*time.Second).Result()
		if err != nil {
			return acquired, err
		}
		if ok {
			acquired = append(acquired, lockKey)
		}
	}
	return acquired, nil
}

func UnlockKeys(ctx context.Context, rdb *redis.Client, lockKeys []string) {
	for _, lockKey := range lockKeys {
		rdb.Del(ctx, lockKey) // want `Del of lock key lockKey does not check the owner`
	}
}

// --- silent ---

// A cache filled key by key and flushed by one DEL: no claim.
type cache struct {
	rdb  *redis.Client
	keys []string
}

func (c *cache) Fill(ctx context.Context, items map[string]string) {
	for k, v := range items {
		key := "cache:" + k
		c.rdb.Set(ctx, key, v, time.Minute)
		c.keys = append(c.keys, key)
	}
}

func (c *cache) Flush(ctx context.Context) {
	for _, k := range c.keys {
		c.rdb.Del(ctx, k)
	}
}

// Idempotency markers, one per item, deleted only when the work fails so
// that a retry can claim them again.
func process(ctx context.Context, rdb *redis.Client, ids []string, fn func(string) error) error {
	var claimed []string
	for _, id := range ids {
		k := "done:" + id
		ok, err := rdb.SetNX(ctx, k, "1", 24*time.Hour).Result()
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		claimed = append(claimed, k)
		if err := fn(id); err != nil {
			for _, c := range claimed {
				rdb.Del(ctx, c)
			}
			return err
		}
	}
	return nil
}

// Keys of a batch written with NX into one slice, and another slice
// deleted.
func stale(ctx context.Context, rdb *redis.Client, ids, old []string) {
	var taken []string
	for _, id := range ids {
		k := "lock:item:" + id
		if rdb.SetNX(ctx, k, token(), time.Minute).Val() {
			taken = append(taken, k)
		}
	}
	for _, k := range old {
		rdb.Del(ctx, k)
	}
	_ = taken
}
