package memcache

import (
	"github.com/bradfitz/gomemcache/memcache"
)

// Add with no Expiration (never expires), then Touch.
func addThenTouch(mc *memcache.Client, key, token string) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: []byte(token)}); err != nil {
		return err
	}
	mc.Touch(key, 30) // want `Touch after Add wrote key without a TTL: a crash in between leaves the key with no TTL; set the Expiration \(seconds\) of the Item`
	return nil
}

// The item in a variable, the Touch's error checked, the TTL a parameter.
func itemVariable(mc *memcache.Client, key string, token []byte, seconds int32) error {
	it := &memcache.Item{Key: key, Value: token}
	if err := mc.Add(it); err != nil {
		return err
	}
	if err := mc.Touch(key, seconds); err != nil { // want `Touch after Add`
		return err
	}
	return nil
}

// Expiration: 0 is "never expires" too.
func zeroExpiration(mc *memcache.Client, key string) {
	if mc.Add(&memcache.Item{Key: key, Value: []byte("x"), Expiration: 0}) == nil {
		mc.Touch(key, 60) // want `Touch after Add`
	}
}

// The item variable is set up further away: reported, no fix.
func farItem(mc *memcache.Client, key string, seconds int32) error {
	it := &memcache.Item{Key: key, Value: []byte("x")}
	seconds++
	if err := mc.Add(it); err != nil {
		return err
	}
	return mc.Touch(key, seconds) // want `Touch after Add`
}

// --- silent ---

// Add with the Expiration: correct.
func correct(mc *memcache.Client, key, token string) error {
	err := mc.Add(&memcache.Item{Key: key, Value: []byte(token), Expiration: 30})
	if err == memcache.ErrNotStored {
		return nil
	}
	return err
}

// Touch of another key.
func otherKey(mc *memcache.Client, key string) {
	mc.Add(&memcache.Item{Key: key, Value: []byte("x")})
	mc.Touch(key+":meta", 30)
}

// Touch(key, 0) makes a key never expire: not a TTL.
func persist(mc *memcache.Client, key string) {
	mc.Add(&memcache.Item{Key: key, Value: []byte("x")})
	mc.Touch(key, 0)
}

// Set, not Add: not an acquire.
func set(mc *memcache.Client, key string) {
	mc.Set(&memcache.Item{Key: key, Value: []byte("x")})
	mc.Touch(key, 30)
}
