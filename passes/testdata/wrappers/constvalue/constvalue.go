// LV204 through declared wrappers.
package constvalue

import (
	"context"
	"time"

	"lockvet.test/wrappers/store"
)

func work(context.Context) error { return nil }

// A constant value, released by the release wrapper.
func jobs(ctx context.Context, st *store.Store, key string) error {
	if ok, err := st.TryLock(ctx, key, "locked", time.Minute); err != nil || !ok { // want `lock key is acquired with the constant "locked" and released, so no owner check can tell holders apart; use a random token`
		return err
	}
	defer st.Unlock(ctx, key)
	return work(ctx)
}

// The safe-release wrapper given a constant token.
func release(ctx context.Context, st *store.Store, key, token string) error {
	if ok, err := st.TryLock(ctx, key, token, time.Minute); err != nil || !ok {
		return err
	}
	defer st.Release(ctx, key, "locked") // want `the owner check of lock key compares it with "locked", a value every caller passes`
	return work(ctx)
}

// --- silent ---

// A token per acquisition.
func safe(ctx context.Context, st *store.Store, key, token string) error {
	if ok, err := st.TryLock(ctx, key, token, time.Minute); err != nil || !ok {
		return err
	}
	defer st.Release(ctx, key, token)
	return work(ctx)
}
