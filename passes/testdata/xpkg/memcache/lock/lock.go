// Package lock holds lock and cache helpers on gomemcache; package order
// calls them.
package lock

import (
	"bytes"
	"errors"

	"github.com/bradfitz/gomemcache/memcache"
)

var mc = memcache.New("127.0.0.1:11211")

// Lock takes key with token for 30 seconds.
func Lock(key string, token []byte) (bool, error) { // want Lock:"acquire-funcs:key=0,value=1"
	err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30})
	if errors.Is(err, memcache.ErrNotStored) {
		return false, nil
	}
	return err == nil, err
}

// Forget deletes key, whoever holds it: not paired with Lock here.
func Forget(key string) error { // want Forget:"release-funcs:key=0"
	return mc.Delete(key)
}

// ForgetIfMine deletes key while it holds token: a Get, a compare and a
// Delete in separate round trips.
func ForgetIfMine(key string, token []byte) error { // want ForgetIfMine:"release-funcs:key=0"
	it, err := mc.Get(key)
	if err != nil {
		return err
	}
	if !bytes.Equal(it.Value, token) {
		return nil
	}
	return mc.Delete(key)
}

// Mark adds an idempotency marker for a day.
func Mark(key string) bool { // want Mark:"acquire-funcs:key=0"
	return mc.Add(&memcache.Item{Key: key, Value: []byte("1"), Expiration: 86400}) == nil
}

// Put and Evict are a cache's writes.
func Put(key string, v []byte) error {
	return mc.Set(&memcache.Item{Key: key, Value: v, Expiration: 3600})
}

func Evict(key string) error { // want Evict:"release-funcs:key=0"
	return mc.Delete(key)
}
