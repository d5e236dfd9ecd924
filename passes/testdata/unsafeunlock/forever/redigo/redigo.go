// Package redigo takes locks with no TTL through redigo and releases them
// with a bare DEL (LV103's locks: see forever/v9).
package redigo

import (
	"errors"
	"time"

	"github.com/gomodule/redigo/redis"
)

// --- reported ---

// INCR as the lock, its error dropped; Unlock deletes the key, and Lock
// also calls it when it gave up waiting, without holding the lock.
type RedisLocker struct{ pool *redis.Pool }

func (r *RedisLocker) IsLocked(key string) bool {
	conn := r.pool.Get()
	incr, _ := redis.Int64(conn.Do("INCR", key))
	conn.Close()
	return incr > 1
}

func (r *RedisLocker) Unlock(key string) {
	conn := r.pool.Get()
	conn.Do("DEL", key) // want `DEL of lock key key does not check the owner: once the lock has its TTL \(LV103\), it can delete another holder's lock, and a release by a caller that did not get the lock deletes the holder's today; delete only while it holds the token`
	conn.Close()
}

func (r *RedisLocker) Lock(key string, timeout time.Duration) (func(), error) {
	lockKey := "LOCKFOR:" + key
	unlock := func() { r.Unlock(lockKey) }
	if !r.IsLocked(lockKey) {
		return unlock, nil
	}
	time.Sleep(timeout)
	r.Unlock(lockKey)
	return unlock, errors.New("timeout")
}

// SETNX with a token, DEL in the same function: the fix compares it.
func withToken(c redis.Conn, key, token string, work func()) error {
	if n, err := redis.Int(c.Do("SETNX", key, token)); err != nil || n != 1 {
		return errors.New("locked")
	}
	work()
	_, err := c.Do("DEL", key) // want `DEL of lock key key does not check the owner: once the lock has its TTL \(LV103\)`
	return err
}

// --- silent ---

// The keys KEYS finds, deleted one by one: no lock evidence.
func (r *RedisLocker) Reset(pattern string) {
	conn := r.pool.Get()
	defer conn.Close()
	keys, _ := redis.Strings(conn.Do("KEYS", pattern))
	for _, k := range keys {
		conn.Do("DEL", k)
	}
}

// A counter with no TTL, deleted by its reset: no lock.
func count(c redis.Conn, id string) {
	c.Do("INCR", "visits:"+id)
}

func resetCount(c redis.Conn, id string) {
	c.Do("DEL", "visits:"+id)
}
