// Package order locks orders through package lock's gomemcache helpers.
package order

import "lockvet.test/xpkg/memcache/lock"

func Process(id string, token []byte) error {
	ok, err := lock.Lock("order:"+id, token)
	if err != nil || !ok {
		return err
	}
	defer lock.Forget("order:" + id) // want `Forget deletes lock key "order:" \+ id with a bare DELETE \(lock/lock\.go:25\) after Lock acquired it, so after the TTL it can delete another holder's lock; Forget has no token: pass it the acquire's`
	return nil
}

// --- silent ---

// A cache entry written and evicted through the helpers.
func Refresh(id string, v []byte) error {
	if err := lock.Put("user:"+id, v); err != nil {
		return err
	}
	return lock.Evict("user:" + id)
}

// An idempotency marker, never released.
func Send(id string, send func() error) error {
	if !lock.Mark("sent:" + id) {
		return nil
	}
	return send()
}

// Another key than the one locked.
func Other(id string, token []byte) error {
	ok, err := lock.Lock("a:"+id, token)
	if err != nil || !ok {
		return err
	}
	return lock.Forget("b:" + id)
}
