package memcache

import (
	"bytes"

	"github.com/bradfitz/gomemcache/memcache"
)

// --- reported (no fix: memcached has no scripts, and a rewrite into
// Get/compare/CompareAndSwap would return errors Delete never did) ---

// Get, compare, Delete: the lock can expire and pass to another process
// between the Get and the Delete, which then deletes their lock. The lock
// is acquired in the same function.
func racy(mc *memcache.Client, key string, token []byte) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30}); err != nil {
		return err
	}
	it, err := mc.Get(key)
	if err != nil {
		return err
	}
	if bytes.Equal(it.Value, token) {
		return mc.Delete(key) // want `Delete of key after a separate GET compare can delete another holder's lock; Get, compare Value, then CompareAndSwap with Expiration -1`
	}
	return nil
}

// The same with the comparison negated and the value as a string, in a
// function named as a release.
func unlockString(mc *memcache.Client, key, token string) error {
	it, err := mc.Get(key)
	if err != nil {
		return err
	}
	if string(it.Value) != token {
		return nil
	}
	return mc.Delete(key) // want `Delete of key after a separate GET compare can delete another holder's lock; Get, compare Value, then CompareAndSwap with Expiration -1`
}

// --- silent ---

// gets, compare, then CompareAndSwap with Expiration -1: the swap fails if
// the item changed since the Get, so this is the owner-checked release.
func release(mc *memcache.Client, key string, token []byte) error {
	it, err := mc.Get(key)
	if err != nil {
		return err
	}
	if !bytes.Equal(it.Value, token) {
		return nil
	}
	it.Expiration = -1
	return mc.CompareAndSwap(it)
}

// A Get that is not compared: a cache read, then an invalidation.
func invalidate(mc *memcache.Client, key string) ([]byte, error) {
	it, err := mc.Get(key)
	if err != nil {
		return nil, err
	}
	return it.Value, mc.Delete(key)
}

// Compared with a constant on a key nothing takes as a lock: a cache
// entry's marker, not an owner check.
func marker(mc *memcache.Client, key string) error {
	it, err := mc.Get(key)
	if err == nil && string(it.Value) == "stale" {
		return mc.Delete(key)
	}
	return nil
}

// A one-time e-mail code: not a lock.
func verifyEmail(mc *memcache.Client, email, code string) bool {
	it, err := mc.Get("email:" + email)
	if err != nil || string(it.Value) != code {
		return false
	}
	mc.Delete("email:" + email)
	return true
}
