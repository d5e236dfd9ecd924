package memcache

import (
	"bytes"
	"errors"

	"github.com/bradfitz/gomemcache/memcache"
)

var ErrLocked = errors.New("locked")

// --- reported (no fix: memcached has no compare-and-delete; the release
// is gets, compare, then CompareAndSwap with Expiration -1) ---

func deferred(mc *memcache.Client, key, token string, work func()) error {
	err := mc.Add(&memcache.Item{Key: key, Value: []byte(token), Expiration: 30})
	if err == memcache.ErrNotStored {
		return ErrLocked
	}
	if err != nil {
		return err
	}
	defer mc.Delete(key) // want `Delete of lock key key does not check the owner: once the TTL has run out and another process holds the lock, this deletes their lock; delete only while the key still holds the token it was acquired with \(memcached has no scripts: Get the item, compare its Value with the token, and CompareAndSwap it with Expiration -1, which fails if the item changed after the Get\)`
	work()
	return nil
}

type Mutex struct {
	mc    *memcache.Client
	key   string
	token []byte
}

func (m *Mutex) Lock() error {
	return m.mc.Add(&memcache.Item{Key: m.key, Value: m.token, Expiration: 10})
}

func (m *Mutex) Unlock() error {
	return m.mc.Delete(m.key) // want `Delete of lock key m.key does not check the owner`
}

// --- silent ---

// The owner-checked release: gets, compare, cas with Expiration -1.
func release(mc *memcache.Client, key, token string) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: []byte(token), Expiration: 30}); err != nil {
		return err
	}
	it, err := mc.Get(key)
	if err != nil {
		return err
	}
	if !bytes.Equal(it.Value, []byte(token)) {
		return ErrLocked
	}
	it.Expiration = -1
	return mc.CompareAndSwap(it)
}

// No Expiration: the item cannot expire under its holder.
func noTTL(mc *memcache.Client, key string) {
	mc.Add(&memcache.Item{Key: key, Value: []byte("1")})
	mc.Delete(key)
}

// Deleted only when the Add failed: not a release.
func onError(mc *memcache.Client, key string) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: []byte("1"), Expiration: 30}); err != nil {
		mc.Delete(key)
		return err
	}
	return nil
}
