package memcache

import (
	"time"

	"github.com/bradfitz/gomemcache/memcache"
)

// Touch in a keep-alive loop. No fix: memcached renews with gets, compare,
// then CompareAndSwap with the new Expiration.
func keepAlive(mc *memcache.Client, key string, token []byte, done <-chan struct{}) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30}); err != nil {
		return err
	}
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				mc.Touch(key, 30) // want `Touch renews lock key in a loop without checking the token, so it can extend another holder's lock; Get, compare Value, then CompareAndSwap with the new Expiration`
			}
		}
	}()
	return nil
}

// --- silent ---

// The owner-checked renewal: gets, compare, cas.
func extend(mc *memcache.Client, key string, token []byte) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30}); err != nil {
		return err
	}
	for range 3 {
		it, err := mc.Get(key)
		if err != nil || string(it.Value) != string(token) {
			return err
		}
		it.Expiration = 30
		if err := mc.CompareAndSwap(it); err != nil {
			return err
		}
	}
	return nil
}

// Add with no Expiration, then Touch: LV101's finding, not a renewal.
func first(mc *memcache.Client, key string) {
	for range 3 {
		if mc.Add(&memcache.Item{Key: key, Value: []byte("1")}) == nil {
			mc.Touch(key, 30)
			return
		}
	}
}
