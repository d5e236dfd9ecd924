// LV201 through declared wrappers.
package unsafeunlock

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"lockvet.test/wrappers/store"
)

func work(context.Context) error { return nil }

// Released by the release wrapper: DEL without an owner check.
func jobs(ctx context.Context, st *store.Store, key, token string) error {
	if ok, err := st.TryLock(ctx, key, token, time.Minute); err != nil || !ok {
		return err
	}
	defer st.Unlock(ctx, key) // want `Unlock of lock key key does not check the owner, so after the TTL it can delete another holder's lock; delete only while it holds the token`
	return work(ctx)
}

// A client acquire released by the wrapper.
func mixed(ctx context.Context, rdb *redis.Client, st *store.Store, key, token string) error {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return nil
	}
	defer st.Unlock(ctx, key) // want `Unlock of lock key key does not check the owner`
	return work(ctx)
}

// --- silent ---

// Released by the safe-release wrapper.
func safe(ctx context.Context, st *store.Store, key, token string) error {
	if ok, err := st.TryLock(ctx, key, token, time.Minute); err != nil || !ok {
		return err
	}
	defer st.Release(ctx, key, token)
	return work(ctx)
}

// Unlock of a key no acquire takes.
func cleanup(ctx context.Context, st *store.Store, key string) {
	st.Unlock(ctx, key)
}
