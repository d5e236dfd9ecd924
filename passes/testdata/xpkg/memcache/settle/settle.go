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
	defer lock.ForgetIfMine(key, token) // want `ForgetIfMine deletes lock key key after a GET compared its value in a separate round trip \(Delete at lock/lock.go:38\), after Lock acquired it \(lock/lock.go:16\)`
	return nil
}

// --- silent ---

// A one-time code checked and consumed: nothing acquired it.
func Verify(user string, code []byte) error {
	return lock.ForgetIfMine("otp:"+user, code)
}
