// Package order takes its lock through the helpers of package cache, as
// summaries of imported functions describe them (the hook facts fill).
package order

import (
	"context"

	"lockvet.test/imported/cache"
)

func Place(ctx context.Context, id string) error {
	ok, err := cache.Take(ctx, "order:"+id)
	if err != nil || !ok {
		return err
	}
	defer cache.Drop(ctx, "order:"+id) // want `Drop deletes lock key "order:" \+ id with a bare DEL \(cache/cache\.go:18\) after Take acquired it, and every holder writes "1": it can delete another holder's lock \(LV204\)`
	return nil
}

// --- silent: a function value ---

func viaValue(ctx context.Context, id string) {
	drop := cache.Drop
	ok, _ := cache.Take(ctx, id)
	if ok {
		drop(ctx, id)
	}
}
