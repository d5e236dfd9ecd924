// LV203 through declared wrappers.
package unsaferenew

import (
	"context"
	"time"

	"lockvet.test/wrappers/store"
)

func work(context.Context) error { return nil }

// A keep-alive goroutine renewing with the expire wrapper.
func jobs(ctx context.Context, st *store.Store, key, token string) error {
	if ok, err := st.TryLock(ctx, key, token, 30*time.Second); err != nil || !ok {
		return err
	}
	defer st.Release(ctx, key, token)
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for range t.C {
			st.Touch(ctx, key, 30) // want `Touch renews lock key in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script`
		}
	}()
	return work(ctx)
}

// --- silent ---

// An expire of a key that is not a lock.
func sessions(ctx context.Context, st *store.Store, id string) {
	for range 3 {
		st.Touch(ctx, "session:"+id, 60)
	}
}
