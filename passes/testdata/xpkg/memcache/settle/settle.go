// Package settle releases locks through package lock's Get-compare-Delete
// helper: LV202 at the call.
package settle

import "lockvet.test/xpkg/memcache/lock"

func Settle(id string, token []byte) error {
	key := "settle:" + id
	ok, err := lock.Lock(key, token)
	if err != nil || !ok {
		return err
	}
	defer lock.ForgetIfMine(key, token) // want `ForgetIfMine deletes lock key key \(Delete at lock/lock\.go:38\) after a separate GET compare, so it can delete another holder's lock; compare and delete in one step inside it`
	return nil
}

// --- silent ---

// A one-time code checked and consumed: nothing acquired it.
func Verify(user string, code []byte) error {
	return lock.ForgetIfMine("otp:"+user, code)
}
