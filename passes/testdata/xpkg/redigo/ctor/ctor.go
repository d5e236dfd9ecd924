// Package ctor holds a lock type on redigo whose constructor takes the
// lock's value from its callers (constvalue/ctor/redigo calls it).
package ctor

import (
	"github.com/gomodule/redigo/redis"
)

var unlockScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Mutex releases with a compare-and-delete of its value.
type Mutex struct {
	pool  *redis.Pool
	key   string
	value []byte
	ttlMs int
}

// NewMutex keeps value as the lock's value.
func NewMutex(pool *redis.Pool, key string, value []byte, ttlMs int) *Mutex { // want NewMutex:"ctor value=2 key=1 Mutex.value Lock SET Unlock owner=release:Unlock"
	return &Mutex{pool: pool, key: key, value: value, ttlMs: ttlMs}
}

// Lock takes the mutex.
func (m *Mutex) Lock() (bool, error) {
	c := m.pool.Get()
	defer c.Close()
	reply, err := redis.String(c.Do("SET", m.key, m.value, "NX", "PX", m.ttlMs))
	if err == redis.ErrNil {
		return false, nil
	}
	return reply == "OK", err
}

// Unlock deletes the mutex while it holds the value.
func (m *Mutex) Unlock() error {
	c := m.pool.Get()
	defer c.Close()
	_, err := unlockScript.Do(c, m.key, m.value)
	return err
}

// Counter is no lock: an INCR'd number whose start a constructor sets.
type Counter struct {
	pool  *redis.Pool
	key   string
	start int
}

// NewCounter keeps start: no fact.
func NewCounter(pool *redis.Pool, key string, start int) *Counter {
	return &Counter{pool: pool, key: key, start: start}
}

// Init creates the counter unless it is there.
func (n *Counter) Init() error {
	c := n.pool.Get()
	defer c.Close()
	_, err := c.Do("SET", n.key, n.start, "NX", "EX", 3600)
	return err
}

// Reset drops it.
func (n *Counter) Reset() error {
	c := n.pool.Get()
	defer c.Close()
	_, err := c.Do("DEL", n.key)
	return err
}
