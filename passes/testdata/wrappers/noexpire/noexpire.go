// LV103 through declared wrappers.
package noexpire

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"

	"lockvet.test/wrappers/store"
)

var errBusy = errors.New("busy")

func work(context.Context) error { return nil }

// A same-package wrapper declared with ttl=none.
func grab(ctx context.Context, rdb *redis.Client, key, token string) bool {
	return rdb.SetNX(ctx, key, token, 0).Val()
}

// TTL 0, released by the release wrapper, never expired.
func nightly(ctx context.Context, st *store.Store, token string) error {
	ok, err := st.TryLock(ctx, "lock:nightly", token, 0) // want `lock "lock:nightly" is acquired by TryLock with no TTL and nothing expires it: a dead holder keeps it forever; pass the TTL to TryLock; then its Unlock must check the owner \(LV201\)`
	if err != nil || !ok {
		return err
	}
	defer st.Unlock(ctx, "lock:nightly")
	return work(ctx)
}

// The plain function, released by a client DEL.
func billing(ctx context.Context, rdb *redis.Client, token string) error {
	if !grab(ctx, rdb, "lock:billing", token) { // want `lock "lock:billing" is acquired by grab with no TTL and nothing expires it: a dead holder keeps it forever; use SET key value NX PX ttl; then its Del must check the owner \(LV201\)`
		return errBusy
	}
	defer rdb.Del(ctx, "lock:billing")
	return work(ctx)
}

// --- silent ---

// Given a TTL by the expire wrapper elsewhere in the package.
func reports(ctx context.Context, st *store.Store, token string) error {
	if ok, _ := st.TryLock(ctx, "lock:reports", token, 0); !ok {
		return errBusy
	}
	defer st.Release(ctx, "lock:reports", token)
	return work(ctx)
}

func keepReports(ctx context.Context, st *store.Store) {
	st.Touch(ctx, "lock:reports", 30)
}

// Acquired with a TTL.
func withTTL(ctx context.Context, st *store.Store, token string) error {
	if ok, _ := st.TryLock(ctx, "lock:ttl", token, 30e9); !ok {
		return errBusy
	}
	defer st.Unlock(ctx, "lock:ttl")
	return work(ctx)
}
