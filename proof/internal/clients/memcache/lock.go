// Package memcache: lock templates for github.com/bradfitz/gomemcache.
// memcached has no compare-and-delete: the owner-checked release and
// renewal read the item with gets and write it back with cas, which fails
// when the item changed in between.
package memcache

import (
	"bytes"
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

func seconds(ttl time.Duration) int32 { return int32(max(1, ttl/time.Second)) }

// TryLock takes the lock if it is free: add, with the TTL in the same
// command.
func (m *Mutex) TryLock() (bool, error) {
	err := m.MC.Add(&memcache.Item{Key: m.Key, Value: []byte(m.Token), Expiration: seconds(m.TTL)})
	if errors.Is(err, memcache.ErrNotStored) {
		return false, nil
	}
	return err == nil, err
}

// Unlock deletes the key only while it holds m.Token.
func (m *Mutex) Unlock() (bool, error) { return m.casIfOwner(-1) }

// Refresh sets the TTL to m.TTL only while the key holds m.Token.
func (m *Mutex) Refresh() (bool, error) { return m.casIfOwner(seconds(m.TTL)) }

// casIfOwner rewrites the item with a new expiration if it holds
// m.Token and has not changed since it was read; -1 expires it now.
func (m *Mutex) casIfOwner(expiration int32) (bool, error) {
	it, err := m.MC.Get(m.Key)
	if errors.Is(err, memcache.ErrCacheMiss) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !bytes.Equal(it.Value, []byte(m.Token)) {
		return false, nil
	}
	it.Expiration = expiration
	err = m.MC.CompareAndSwap(it)
	if errors.Is(err, memcache.ErrCASConflict) || errors.Is(err, memcache.ErrNotStored) || errors.Is(err, memcache.ErrCacheMiss) {
		return false, nil
	}
	return err == nil, err
}
