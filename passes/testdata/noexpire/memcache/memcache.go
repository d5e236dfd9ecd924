package memcache

import (
	"bytes"
	"errors"

	"github.com/bradfitz/gomemcache/memcache"
)

var errBusy = errors.New("busy")

// Add with no Expiration: the item never expires.
func deferDelete(mc *memcache.Client, key, token string) error {
	err := mc.Add(&memcache.Item{Key: key, Value: []byte(token)}) // want `lock key is acquired by Add with no TTL and nothing expires it: a dead holder keeps it forever; set the Expiration \(seconds\) of the Item; then its Delete must check the owner \(LV201\)`
	if err == memcache.ErrNotStored {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer mc.Delete(key)
	return nil
}

// Expiration 0 in a variable's item; released with gets and cas.
type Mutex struct {
	mc    *memcache.Client
	key   string
	token []byte
}

func (m *Mutex) Lock() error {
	it := &memcache.Item{Key: m.key, Value: m.token, Expiration: 0}
	return m.mc.Add(it) // want `lock m\.key is acquired by Add with no TTL and nothing expires it: a dead holder keeps it forever; set the Expiration \(seconds\) of the Item`
}

func (m *Mutex) Unlock() error {
	it, err := m.mc.Get(m.key)
	if err != nil {
		return err
	}
	if !bytes.Equal(it.Value, m.token) {
		return nil
	}
	it.Expiration = -1
	return m.mc.CompareAndSwap(it)
}

// --- silent ---

// With an Expiration.
func withTTL(mc *memcache.Client, key, token string) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: []byte(token), Expiration: 30}); err != nil {
		return err
	}
	return mc.Delete(key)
}

// Touched right after (LV101's finding).
func touched(mc *memcache.Client, key string) {
	mc.Add(&memcache.Item{Key: key, Value: []byte("1")})
	mc.Touch(key, 30)
	defer mc.Delete(key)
}

// A set-once marker, never deleted.
func marker(mc *memcache.Client, id string) bool {
	return mc.Add(&memcache.Item{Key: "migrated:" + id, Value: []byte("1")}) == nil
}
