// LV105 through declared wrappers.
package acquireresult

import (
	"context"
	"time"

	"lockvet.test/wrappers/store"
)

const ttl = 30 * time.Second

func work(context.Context) error { return nil }

// Only the error of a (bool, error) wrapper is checked.
func onlyErr(ctx context.Context, st *store.Store, key, token string) error {
	_, err := st.TryLock(ctx, key, token, ttl) // want `only the error of TryLock is checked: a held lock is false with a nil error, so this runs without the lock; check the bool too`
	if err != nil {
		return err
	}
	defer st.Release(ctx, key, token)
	return work(ctx)
}

// The reply discarded.
func discarded(ctx context.Context, st *store.Store, key, token string) error {
	st.TryLock(ctx, key, token, ttl) // want `the reply of TryLock is discarded`
	defer st.Release(ctx, key, token)
	return work(ctx)
}

// The error of an error-only wrapper discarded.
func errDiscarded(ctx context.Context, st *store.Store, key, token string) error {
	_ = st.Acquire(ctx, key, token, ttl) // want `the error of Acquire is discarded`
	defer st.Release(ctx, key, token)
	return work(ctx)
}

// --- silent ---

func checked(ctx context.Context, st *store.Store, key, token string) (bool, error) {
	ok, err := st.TryLock(ctx, key, token, ttl)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, nil
	}
	defer st.Release(ctx, key, token)
	return true, work(ctx)
}

func errChecked(ctx context.Context, st *store.Store, key, token string) error {
	if err := st.Acquire(ctx, key, token, ttl); err != nil {
		return err
	}
	defer st.Release(ctx, key, token)
	return work(ctx)
}
