package order

import (
	"context"
	"time"

	"lockvet.test/xpkg/v9/lock"
)

// Helpers that build their keys in locals.
func Ship(ctx context.Context, id string) error {
	ok, err := lock.LockJob(ctx, id)
	if err != nil || !ok {
		return err
	}
	defer lock.ForgetJob(ctx, id) // want `ForgetJob deletes lock key id with a bare DEL \(lock/locals\.go:17\) after LockJob acquired it, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	return nil
}

// The caller's key in a local, passed to both helpers.
func Pack(ctx context.Context, id string) error {
	key := "pack:" + id
	ok, err := lock.Lock(ctx, key, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer lock.Forget(ctx, key) // want `Forget deletes lock key key with a bare DEL \(lock/lock\.go:28\) after Lock acquired it, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	return nil
}

// --- silent ---

// Two locals, two keys.
func Label(ctx context.Context, id string) error {
	held := "label:" + id
	printed := "printed:" + id
	ok, err := lock.Lock(ctx, held, time.Minute)
	if err != nil || !ok {
		return err
	}
	return lock.Forget(ctx, printed)
}

// A cache eviction through a helper with no fact.
func Reset(ctx context.Context, id string) error {
	return lock.Evict(ctx, id, false)
}
