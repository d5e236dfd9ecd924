// Package settle releases locks through a GET-compare-DEL helper of the
// lock package: LV202 at the call, naming the helper and its DEL.
package settle

import (
	"context"
	"time"

	"lockvet.test/xpkg/v9/lock"
)

func Settle(ctx context.Context, id, token string) error {
	key := "settle:" + id
	ok, err := lock.Lock(ctx, key, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer lock.ForgetIfMine(ctx, key, token) // want `ForgetIfMine deletes lock key key \(Del at lock/owner\.go:13\) after a separate GET compare, so it can delete another holder's lock; compare and delete in one step inside it`
	return nil
}

// --- silent ---

// A one-time code: nothing acquired the key.
func Verify(ctx context.Context, user, code string) bool {
	return lock.UseCode(ctx, "otp:"+user, code)
}

// The helper deletes another key than the one locked.
func Other(ctx context.Context, id, token string) error {
	ok, err := lock.Lock(ctx, "a:"+id, time.Minute)
	if err != nil || !ok {
		return err
	}
	return lock.ForgetIfMine(ctx, "b:"+id, token)
}
