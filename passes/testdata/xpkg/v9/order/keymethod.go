package order

import (
	"context"
	"time"

	"lockvet.test/xpkg/v9/lock"
)

// Grab and Let on the same store: one key.
func Settle(ctx context.Context, s *lock.Store, id string) error {
	ok, err := s.Grab(ctx, id, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer s.Let(ctx, id) // want `Let deletes lock key id with a bare DEL \(lock/keymethod\.go:23\) after Grab acquired it, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	return nil
}

// --- silent ---

// Two stores: Let deletes another key than Grab took.
func Transfer(ctx context.Context, from, to *lock.Store, id string) error {
	ok, err := from.Grab(ctx, id, time.Minute)
	if err != nil || !ok {
		return err
	}
	return to.Let(ctx, id)
}

// Another key function argument: another key.
func Refund(ctx context.Context, s *lock.Store, id string) error {
	ok, err := s.Grab(ctx, id, time.Minute)
	if err != nil || !ok {
		return err
	}
	return s.Other(ctx, id)
}
