package memcache

import (
	"bytes"

	"github.com/bradfitz/gomemcache/memcache"
)

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

// Get, compare, Delete is the check-then-delete race, but a memcached reply
// is an *Item whose Value field is compared: not followed (a known gap).
func racy(mc *memcache.Client, key string, token []byte) error {
	it, err := mc.Get(key)
	if err != nil {
		return err
	}
	if bytes.Equal(it.Value, token) {
		return mc.Delete(key)
	}
	return nil
}
