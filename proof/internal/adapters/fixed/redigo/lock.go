// Package redigo is the redigo client proof shape: acquire, release and
// renew of one lock, under proof/internal/adapters/buggy as lockvet
// reports them, under proof/internal/adapters/fixed as lockvet -fix
// rewrites them.
package redigo

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

// renewScript extends a lock's TTL (ARGV[2], in milliseconds) only while
// the key still holds this process's token (ARGV[1]).
var renewScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// unlockScript deletes a lock only while it still holds the token it was
// acquired with (KEYS[1] the lock key, ARGV[1] the token).
var unlockScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	Conn  redis.Conn
	Key   string
	Token string
	TTL   time.Duration
}

// TryLock takes the lock if it is free.
func (m *Mutex) TryLock() (bool, error) {
	_, err := redis.String(m.Conn.Do("SET", m.Key, m.Token, "NX", "PX", m.TTL.Milliseconds()))
	ok := err == nil
	if err == redis.ErrNil {
		err = nil
	}
	if err != nil {
		return false, err
	}
	return ok, nil
}

// Unlock releases the lock; it reports whether it deleted the key.
func (m *Mutex) Unlock() (bool, error) {
	n, err := redis.Int(unlockScript.Do(m.Conn, m.Key, m.Token))
	return n == 1, err
}

// Refresh extends the lock by m.TTL; it reports whether it did.
func (m *Mutex) Refresh() (bool, error) {
	return redis.Bool(renewScript.Do(m.Conn, m.Key, m.Token, m.TTL.Milliseconds()))
}

// TryAcquire takes the lock on key for ttl; it reports whether it did.
func TryAcquire(c redis.Conn, key, token string, ttl time.Duration) (bool, error) {
	if reply, err := c.Do("SET", key, token, "NX", "PX", ttl.Milliseconds()); err != nil {
		return false, err
	} else if reply == nil {
		return false, nil
	}
	return true, nil
}

// AcquireFor takes the lock on key for ttl; it reports whether it did.
func AcquireFor(c redis.Conn, key, token string, ttl time.Duration) (bool, error) {
	reply, err := c.Do("SET", key, token, "NX", "PX", int(ttl/time.Millisecond))
	if err != nil {
		return false, err
	}
	return reply != nil, nil
}
