package multibatch

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// The keys of a batch lock released in one DEL of the slice that holds
// them (Del(ctx, keys...)).

// mlockTx queues a SETNX and an EXPIRE per key in one transaction and
// keeps the keys; MUnlock deletes them all.
type mlockTx struct {
	rdb  *redis.Client
	keys []string
}

func (l *mlockTx) MLock(ctx context.Context, ttl time.Duration, names ...string) error {
	pipe := l.rdb.TxPipeline()
	l.keys = nil
	for _, n := range names {
		key := "lock:m:" + n
		l.keys = append(l.keys, key)
		pipe.SetNX(ctx, key, token(), 0)
		pipe.Expire(ctx, key, ttl)
	}
	_, err := pipe.Exec(ctx)
	return err
}

func (l *mlockTx) MUnlock(ctx context.Context) error {
	return l.rdb.Del(ctx, l.keys...).Err() // want `Del of lock keys l.keys does not check the owner`
}

// One function: the keys held, released in one DEL.
func withLocksSpread(ctx context.Context, rdb *redis.Client, ids []string, fn func()) {
	var held []string
	for _, id := range ids {
		k := "lock:order:" + id
		if !rdb.SetNX(ctx, k, token(), time.Minute).Val() {
			break
		}
		held = append(held, k)
	}
	fn()
	rdb.Del(ctx, held...) // want `Del of lock keys held does not check the owner`
}

// LockRows returns the keys it took; its counterpart deletes them in one
// DEL.
func LockRows(ctx context.Context, rdb *redis.Client, rows []string) []string {
	var acquired []string
	for _, r := range rows {
		k := "lock:row:" + r
		if rdb.SetNX(ctx, k, token(), 10*time.Second).Val() {
			acquired = append(acquired, k)
		}
	}
	return acquired
}

func UnlockRows(ctx context.Context, rdb *redis.Client, lockKeys []string) {
	rdb.Del(ctx, lockKeys...) // want `Del of lock keys lockKeys does not check the owner`
}

// --- silent ---

// A cache filled key by key and flushed by one DEL of its keys: no claim.
func (c *cache) FlushAll(ctx context.Context) {
	c.rdb.Del(ctx, c.keys...)
}

// Idempotency markers, one per item, deleted in one DEL only when the
// work fails.
func processAll(ctx context.Context, rdb *redis.Client, ids []string, fn func([]string) error) error {
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

// Markers of a batch kept by a type that names no lock, reset together:
// no lock is named, so the slice in another function is no release.
type seenBatch struct {
	rdb  *redis.Client
	keys []string
}

func (b *seenBatch) Mark(ctx context.Context, ids []string) {
	for _, id := range ids {
		k := "seen:" + id
		if b.rdb.SetNX(ctx, k, token(), time.Hour).Val() {
			b.keys = append(b.keys, k)
		}
	}
}

func (b *seenBatch) Reset(ctx context.Context) {
	b.rdb.Del(ctx, b.keys...)
}

// Keys taken into one slice, another slice deleted.
func staleSpread(ctx context.Context, rdb *redis.Client, ids, old []string) []string {
	var taken []string
	for _, id := range ids {
		k := "lock:item:" + id
		if rdb.SetNX(ctx, k, token(), time.Minute).Val() {
			taken = append(taken, k)
		}
	}
	rdb.Del(ctx, old...)
	return taken
}

// A constant value per element: no token fix (each key would need its
// own token kept with it).
func withConstLocks(ctx context.Context, rdb *redis.Client, ids []string, fn func()) {
	var held []string
	for _, id := range ids {
		k := "lock:const:" + id
		if !rdb.SetNX(ctx, k, "1", time.Minute).Val() {
			break
		}
		held = append(held, k)
	}
	fn()
	rdb.Del(ctx, held...) // want `Del of lock keys held does not check the owner, and every holder writes "1"`
}

func LockConst(ctx context.Context, rdb *redis.Client, rows []string) []string {
	var acquired []string
	for _, r := range rows {
		k := "lock:crow:" + r
		if rdb.SetNX(ctx, k, "1", 10*time.Second).Val() {
			acquired = append(acquired, k)
		}
	}
	return acquired
}

func UnlockConst(ctx context.Context, rdb *redis.Client, lockKeys []string) {
	for _, k := range lockKeys {
		rdb.Del(ctx, k) // want `Del of lock key k does not check the owner, and every holder writes "1"`
	}
}
