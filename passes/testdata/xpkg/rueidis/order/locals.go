package order

import (
	"context"
	"time"

	"lockvet.test/xpkg/rueidis/lock"
)

func Ship(ctx context.Context, id string) error {
	ok, err := lock.LockJob(ctx, id)
	if err != nil || !ok {
		return err
	}
	defer lock.ForgetJob(ctx, id) // want `ForgetJob deletes lock key id with a bare DEL \(lock/locals\.go:23\) after LockJob acquired it, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	return nil
}

func Pack(ctx context.Context, id string) error {
	key := "pack:" + id
	ok, err := lock.Lock(ctx, key, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer lock.Forget(ctx, key) // want `Forget deletes lock key key with a bare DEL`
	return nil
}

// --- silent: two locals, two keys ---
func Label(ctx context.Context, id string) error {
	held := "label:" + id
	printed := "printed:" + id
	ok, err := lock.Lock(ctx, held, time.Minute)
	if err != nil || !ok {
		return err
	}
	return lock.Forget(ctx, printed)
}
