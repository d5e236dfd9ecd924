// Package memcache is the gomemcache client proof shape: acquire, release and
// renew of one lock, under proof/internal/adapters/buggy as lockvet
// reports them, under proof/internal/adapters/fixed as lockvet -fix
// rewrites them.
package memcache

import (
	"errors"
	"time"

	"github.com/bradfitz/gomemcache/memcache"
)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	MC    *memcache.Client
	Key   string
	Token string
	TTL   time.Duration // whole seconds, at most 30 days
}

// TryLock takes the lock if it is free.
func (m *Mutex) TryLock() (bool, error) {
	err := m.MC.Add(&memcache.Item{Key: m.Key, Value: []byte(m.Token)})
	if errors.Is(err, memcache.ErrNotStored) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, m.MC.Touch(m.Key, int32(m.TTL/time.Second))
}

// Unlock releases the lock; it reports whether it deleted the key.
func (m *Mutex) Unlock() (bool, error) {
	err := m.MC.Delete(m.Key)
	if errors.Is(err, memcache.ErrCacheMiss) {
		return false, nil
	}
	return err == nil, err
}

// Refresh extends the lock by m.TTL; it reports whether it did.
func (m *Mutex) Refresh() (bool, error) {
	err := m.MC.Touch(m.Key, int32(m.TTL/time.Second))
	if errors.Is(err, memcache.ErrCacheMiss) {
		return false, nil
	}
	return err == nil, err
}
