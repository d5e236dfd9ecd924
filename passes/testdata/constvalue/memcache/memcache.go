package memcache

import (
	"crypto/rand"

	"github.com/bradfitz/gomemcache/memcache"
)

// A constant value, released by Delete.
func constant(mc *memcache.Client, key string) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: []byte("locked"), Expiration: 30}); err != nil { // want `lock key is acquired with the constant "locked" and released, so no owner check can tell holders apart; use a random token`
		return err
	}
	return mc.Delete(key)
}

// Renewed by Touch.
func renewed(mc *memcache.Client, key string) {
	if mc.Add(&memcache.Item{Key: key, Value: []byte("1"), Expiration: 30}) != nil { // want `lock key is acquired with the constant "1" and renewed, so no owner check can tell holders apart; use a random token`
		return
	}
	for range 3 {
		mc.Touch(key, 30)
	}
}

// --- silent ---

func random(mc *memcache.Client, key string) error {
	token := make([]byte, 16)
	rand.Read(token)
	if err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30}); err != nil {
		return err
	}
	return mc.Delete(key)
}
