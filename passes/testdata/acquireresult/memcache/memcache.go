package memcache

import (
	"errors"
	"log"

	"github.com/bradfitz/gomemcache/memcache"
)

var errBusy = errors.New("lock busy")

func work() error { return nil }

// Add: nil when stored, memcache.ErrNotStored when the key exists. Only
// the busy error handled: a timeout falls through as acquired.
func onlyBusy(mc *memcache.Client, key string, token []byte) error {
	err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30}) // want `only the busy reply of Add \(memcache.ErrNotStored\) is handled`
	if err == memcache.ErrNotStored {
		return errBusy
	}
	defer mc.Delete(key)
	return work()
}

type Lock struct {
	mc  *memcache.Client
	key string
}

// The same with errors.Is in the if's init, (bool, error).
func (l *Lock) TryLock() (bool, error) {
	if err := l.mc.Add(&memcache.Item{Key: l.key, Value: []byte("1"), Expiration: 30}); errors.Is(err, memcache.ErrNotStored) { // want `only the busy reply of Add`
		return false, nil
	}
	return true, nil
}

// The reply is discarded.
func (l *Lock) Lock() {
	l.mc.Add(&memcache.Item{Key: l.key, Value: []byte("1"), Expiration: 30}) // want `the reply of Add is discarded`
}

func (l *Lock) Unlock() {
	l.mc.Delete(l.key)
}

// Fail-open.
func tryLock(mc *memcache.Client, key string) bool {
	err := mc.Add(&memcache.Item{Key: key, Value: []byte("1"), Expiration: 30}) // want `when Add fails, this path returns true \(acquired\)`
	if err == memcache.ErrNotStored {
		return false
	}
	if err != nil {
		log.Println("lock:", err)
	}
	return true
}

// --- silent ---

func correct(mc *memcache.Client, key string, token []byte) (bool, error) {
	err := mc.Add(&memcache.Item{Key: key, Value: token, Expiration: 30})
	if errors.Is(err, memcache.ErrNotStored) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

// Any error is "not acquired".
func failClosed(mc *memcache.Client, key string) error {
	if err := mc.Add(&memcache.Item{Key: key, Value: []byte("1"), Expiration: 30}); err != nil {
		return err
	}
	defer mc.Delete(key)
	return work()
}

// A cache fill, not a lock: nothing releases it or names it one.
func fill(mc *memcache.Client, key string, v []byte) {
	mc.Add(&memcache.Item{Key: key, Value: v, Expiration: 300})
}
