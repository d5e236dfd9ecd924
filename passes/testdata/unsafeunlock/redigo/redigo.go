package redigo

import (
	"context"
	"errors"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredigo "github.com/go-redsync/redsync/v4/redis/redigo"
	"github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("busy")

func work() {}

// The DEL deletes whoever holds the lock by then.
func withLock(c redis.Conn, key, token string) error {
	reply, err := c.Do("SET", key, token, "NX", "PX", 30000)
	if err != nil {
		return err
	}
	if reply == nil {
		return errBusy
	}
	defer c.Do("DEL", key) // want `DEL of lock key key does not check the owner`
	work()
	return nil
}

type Mutex struct {
	pool  *redis.Pool
	key   string
	token string
}

func (m *Mutex) Lock() error {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := redis.String(conn.Do("SET", m.key, m.token, "NX", "EX", 30))
	return err
}

// The Unlock of a Lock/Unlock pair; the reply read through redis.Int.
func (m *Mutex) Unlock() (bool, error) {
	conn := m.pool.Get()
	defer conn.Close()
	n, err := redis.Int(conn.Do("DEL", m.key)) // want `DEL of lock key m.key does not check the owner`
	return n == 1, err
}

// Queued in a transaction (no WATCH): EVAL goes in the batch.
func releaseTx(c redis.Conn, key, token string) error {
	if _, err := redis.String(c.Do("SET", key, token, "NX", "EX", 30)); err != nil {
		return err
	}
	work()
	c.Send("MULTI")
	c.Send("DEL", key) // want `DEL of lock key key does not check the owner`
	c.Send("INCR", "released")
	_, err := c.Do("EXEC")
	return err
}

// The context form.
func withContext(ctx context.Context, c redis.Conn, key, token string) error {
	if _, err := redis.String(redis.DoContext(c, ctx, "SET", key, token, "NX", "EX", 30)); err != nil {
		return err
	}
	work()
	_, err := redis.DoContext(c, ctx, "DEL", key) // want `DEL of lock key key does not check the owner`
	return err
}

// DoWithTimeout has no script form: reported, no fix.
func withTimeout(c redis.Conn, key, token string) {
	c.Do("SET", key, token, "NX", "EX", 30)
	work()
	redis.DoWithTimeout(c, time.Second, "DEL", key) // want `DEL of lock key key does not check the owner`
}

// A constant value: no token to compare, no fix.
func constValue(pool *redis.Pool, key string) {
	conn := pool.Get()
	defer conn.Close()
	conn.Do("SET", key, "1", "NX", "EX", 30)
	work()
	conn.Do("DEL", key) // want `DEL of lock key key does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)`
}

// --- silent ---

var unlock = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// The compare-and-delete script.
func scripted(c redis.Conn, key, token string) {
	c.Do("SET", key, token, "NX", "EX", 30)
	work()
	unlock.Do(c, key, token)
}

// WATCH, GET, MULTI, DEL, EXEC: EXEC fails if the key changed.
func watched(c redis.Conn, key, token string) error {
	c.Do("SET", key, token, "NX", "EX", 30)
	work()
	c.Do("WATCH", key)
	v, err := redis.String(c.Do("GET", key))
	if err != nil || v != token {
		c.Do("UNWATCH")
		return err
	}
	c.Send("MULTI")
	c.Send("DEL", key)
	_, err = c.Do("EXEC")
	return err
}

// No TTL, nothing expires it (LV103's lock): reported, with the fix.
func noTTL(c redis.Conn, key, token string) {
	c.Do("SETNX", key, token)
	work()
	c.Do("DEL", key) // want `DEL of lock key key does not check the owner: once the lock has its TTL \(LV103\)`
}

// Another key.
func otherKey(c redis.Conn, key, token string) {
	c.Do("SET", key, token, "NX", "EX", 30)
	c.Do("DEL", key+":data")
}

// redsync with its redigo pool releases by script.
func withRedsync(pool *redis.Pool) error {
	m := redsync.New(redsyncredigo.NewPool(pool)).NewMutex("lock:report")
	if err := m.Lock(); err != nil {
		return err
	}
	defer m.Unlock()
	work()
	return nil
}
