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
	defer mc.Delete(key) // want `Delete of lock key key does not check the owner, so after the TTL it can delete another holder's lock; Get, compare Value, then CompareAndSwap with Expiration -1`
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

// No Expiration, nothing expires it (LV103's lock): reported, no fix.
func noTTL(mc *memcache.Client, key string) {
	mc.Add(&memcache.Item{Key: key, Value: []byte("1")})
	mc.Delete(key) // want `Delete of lock key key does not check the owner, and every holder writes "1": once the lock has its TTL \(LV103\)`
}

// Deleted only when the Add failed: not a release.
func onError(mc *memcache.Client, key string) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: []byte("1"), Expiration: 30}); err != nil {
		mc.Delete(key)
		return err
	}
	return nil
}
