package order

import (
	"context"

	"lockvet.test/xpkg/v9/lock"
)

// Take and Drop on the same locker: one key.
func Dispatch(ctx context.Context, l *lock.Locker, id string) error {
	ok, err := l.Take(ctx, id)
	if err != nil || !ok {
		return err
	}
	defer l.Drop(ctx, id) // want `Drop deletes lock key id with a bare DEL \(lock/prefix\.go:20\) after Take acquired it, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	return nil
}

// --- silent ---

// Two lockers, two prefixes: Drop deletes another key than Take took.
func Move(ctx context.Context, from, to *lock.Locker, id string) error {
	ok, err := from.Take(ctx, id)
	if err != nil || !ok {
		return err
	}
	return to.Drop(ctx, id)
}
