// Package redigo: lock templates for github.com/gomodule/redigo.
package redigo

import (
	"errors"
	"time"

	"github.com/gomodule/redigo/redis"

	"github.com/lockvet/lockvet/internal/lua"
)

var (
	unlockScript = redis.NewScript(1, lua.UnlockSrc)
	renewScript  = redis.NewScript(1, lua.RenewSrc)
)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	Conn  redis.Conn
	Key   string
	Token string
	TTL   time.Duration
}

// TryLock takes the lock if it is free: SET key token NX PX ttl, whose
// nil reply (redis.ErrNil through redis.String) means busy.
func (m *Mutex) TryLock() (bool, error) {
	_, err := redis.String(m.Conn.Do("SET", m.Key, m.Token, "NX", "PX", m.TTL.Milliseconds()))
	if errors.Is(err, redis.ErrNil) {
		return false, nil
	}
	return err == nil, err
}

// Unlock deletes the key only while it holds m.Token.
func (m *Mutex) Unlock() (bool, error) {
	n, err := redis.Int(unlockScript.Do(m.Conn, m.Key, m.Token))
	return n == 1, err
}

// Refresh sets the TTL to m.TTL only while the key holds m.Token.
func (m *Mutex) Refresh() (bool, error) {
	n, err := redis.Int(renewScript.Do(m.Conn, m.Key, m.Token, m.TTL.Milliseconds()))
	return n == 1, err
}
