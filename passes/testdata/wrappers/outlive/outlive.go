// LV106 through declared wrappers.
package outlive

import (
	"context"
	"time"

	"lockvet.test/wrappers/store"
)

func work(ctx context.Context) error { return ctx.Err() }

// A 30 s lock through the acquire wrapper, the work given 2 minutes.
func jobs(ctx context.Context, st *store.Store, key, token string) error {
	if ok, err := st.TryLock(ctx, key, token, 30*time.Second); err != nil || !ok {
		return err
	}
	defer st.Release(ctx, key, token)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // want `the work under lock key gets 2m0s \(context\.WithTimeout\), not less than its TTL 30s: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return work(ctx)
}

// Released by the release wrapper after a sleep as long as the lock.
func nightly(ctx context.Context, st *store.Store, token string) error {
	if err := st.Acquire(ctx, "lock:nightly", token, time.Minute); err != nil {
		return err
	}
	time.Sleep(time.Minute) // want `time.Sleep\(1m0s\) while holding lock "lock:nightly", whose TTL is 1m0s`
	return st.Unlock(ctx, "lock:nightly")
}

// --- silent ---

// Touched through the expire wrapper while the work runs.
func touched(ctx context.Context, st *store.Store, key, token string) error {
	if ok, err := st.TryLock(ctx, key, token, 30*time.Second); err != nil || !ok {
		return err
	}
	defer st.Release(ctx, key, token)
	go func() {
		for range time.Tick(10 * time.Second) {
			st.Touch(ctx, key, 30)
		}
	}()
	time.Sleep(time.Minute)
	return nil
}

// The work ends first.
func shorter(ctx context.Context, st *store.Store, key, token string) error {
	if ok, err := st.TryLock(ctx, key, token, time.Minute); err != nil || !ok {
		return err
	}
	defer st.Release(ctx, key, token)
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	return work(ctx)
}
