// Package redigo is the redigo client proof shape: acquire, release and
// renew of one lock, under proof/internal/adapters/buggy as lockvet
// reports them, under proof/internal/adapters/fixed as lockvet -fix
// rewrites them.
package redigo

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	Conn  redis.Conn
	Key   string
	Token string
	TTL   time.Duration
}

// TryLock takes the lock if it is free.
func (m *Mutex) TryLock() (bool, error) {
	ok, err := redis.Bool(m.Conn.Do("SETNX", m.Key, m.Token))
	if err != nil {
		return false, err
	}
	if ok {
		m.Conn.Do("PEXPIRE", m.Key, m.TTL.Milliseconds())
	}
	return ok, nil
}

// Unlock releases the lock; it reports whether it deleted the key.
func (m *Mutex) Unlock() (bool, error) {
	n, err := redis.Int(m.Conn.Do("DEL", m.Key))
	return n == 1, err
}

// Refresh extends the lock by m.TTL; it reports whether it did.
func (m *Mutex) Refresh() (bool, error) {
	return redis.Bool(m.Conn.Do("PEXPIRE", m.Key, m.TTL.Milliseconds()))
}

// TryAcquire takes the lock on key for ttl; it reports whether it did.
func TryAcquire(c redis.Conn, key, token string, ttl time.Duration) (bool, error) {
	if _, err := c.Do("SET", key, token, "NX", "PX", ttl.Milliseconds()); err != nil {
		return false, err
	}
	return true, nil
}

// AcquireFor takes the lock on key for ttl; it reports whether it did.
func AcquireFor(c redis.Conn, key, token string, ttl time.Duration) (bool, error) {
	reply, err := c.Do("SET", key, token, "NX", "EX", int(ttl/time.Millisecond))
	if err != nil {
		return false, err
	}
	return reply != nil, nil
}
