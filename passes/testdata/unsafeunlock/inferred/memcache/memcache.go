// gomemcache lock helpers: Add takes the lock, Delete releases it.
package memcache

import (
	"errors"

	"github.com/bradfitz/gomemcache/memcache"
)

var mc = memcache.New("127.0.0.1:11211")

// Lock and Unlock, the key built in a local: paired by their names.
func Lock(id string, token []byte) (bool, error) {
	key := "lock:" + id
	err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30})
	if errors.Is(err, memcache.ErrNotStored) {
		return false, nil
	}
	return err == nil, err
}

func Unlock(id string) error {
	key := "lock:" + id
	return mc.Delete(key) // want `Delete of lock key key does not check the owner`
}

// No lock names: paired through a caller.
func claim(key string, token []byte) error {
	return mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 60})
}

func done(key string) {
	mc.Delete(key) // want `Delete of lock key key does not check the owner`
}

func batch(id string, token []byte) error {
	if err := claim("batch:"+id, token); err != nil {
		return err
	}
	defer done("batch:" + id)
	return nil
}

// --- silent ---

// A cache: Set/Get/Delete wrappers.
func put(id string, v []byte) error {
	key := "user:" + id
	return mc.Set(&memcache.Item{Key: key, Value: v, Expiration: 3600})
}

func get(id string) ([]byte, error) {
	it, err := mc.Get("user:" + id)
	if err != nil {
		return nil, err
	}
	return it.Value, nil
}

func evict(id string) error {
	key := "user:" + id
	return mc.Delete(key)
}

func profile(id string) ([]byte, error) {
	if err := put(id, []byte("x")); err != nil {
		return nil, err
	}
	defer evict(id)
	return get(id)
}

// An idempotency marker: Add with no release.
func markSent(id string) bool {
	return mc.Add(&memcache.Item{Key: "sent:" + id, Value: []byte("1"), Expiration: 86400}) == nil
}

func send(id string) {
	if markSent(id) {
		evict(id)
	}
}
