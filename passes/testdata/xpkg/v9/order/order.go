package order

import (
	"context"
	"time"

	"lockvet.test/xpkg/v9/lock"
)

func Process(ctx context.Context, id string) error {
	ok, err := lock.Lock(ctx, "order:"+id, 10*time.Second)
	if err != nil || !ok {
		return err
	}
	defer lock.Forget(ctx, "order:"+id) // want `Forget deletes lock key "order:" \+ id with a bare DEL \(lock/lock\.go:28\) after Lock acquired it, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	return nil
}

// The helper package pairs Lock and Unlock itself: the finding about
// Unlock's DEL is inside it, not here.
func Cancel(ctx context.Context, id string) error {
	ok, err := lock.Lock(ctx, "order:"+id, 10*time.Second)
	if err != nil || !ok {
		return err
	}
	return lock.Unlock(ctx, "order:"+id)
}

// A cache read through the helper package: silent.
func Show(ctx context.Context, id string) string {
	return lock.Cached(ctx, "order:"+id)
}
