// LV101 through declared wrappers.
package setnxexpire

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"lockvet.test/wrappers/store"
)

// A same-package wrapper declared with ttl=none.
func grab(ctx context.Context, rdb *redis.Client, key, token string) bool {
	return rdb.SetNX(ctx, key, token, 0).Val()
}

// The wrapper's TTL left at 0, then the expire wrapper.
func jobs(ctx context.Context, st *store.Store, key, token string) error {
	ok, err := st.TryLock(ctx, key, token, 0)
	if err != nil || !ok {
		return err
	}
	return st.Touch(ctx, key, 30) // want `Touch after TryLock acquired key without a TTL: .*; pass the TTL to TryLock`
}

// A plain function call (no receiver) as the acquire, a client EXPIRE.
func report(ctx context.Context, rdb *redis.Client, token string) {
	if grab(ctx, rdb, "lock:report", token) {
		rdb.Expire(ctx, "lock:report", time.Minute) // want `Expire after grab acquired "lock:report" without a TTL: a crash in between leaves the lock held forever; use SET key value NX PX ttl`
	}
}

// A client acquire, the expire wrapper; nothing says the key is a lock.
func mixed(ctx context.Context, rdb *redis.Client, st *store.Store, key string) {
	if rdb.SetNX(ctx, key, "t", 0).Val() {
		st.Touch(ctx, key, 30) // want `Touch after SetNX wrote key without a TTL: a crash in between leaves the key with no TTL; pass the TTL to SetNX`
	}
}

// --- silent ---

// The TTL passed to the acquire wrapper.
func withTTL(ctx context.Context, st *store.Store, key, token string) error {
	ok, err := st.TryLock(ctx, key, token, time.Minute)
	if err != nil || !ok {
		return err
	}
	return st.Touch(ctx, key, 60)
}

// A different key.
func otherKey(ctx context.Context, st *store.Store, key string) {
	if ok, _ := st.TryLock(ctx, key, "t", 0); ok {
		st.Touch(ctx, key+":meta", 30)
	}
}
