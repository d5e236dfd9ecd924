package redigo

import (
	"context"
	"errors"
	"log"

	"github.com/go-redsync/redsync/v4"
	redsyncredigo "github.com/go-redsync/redsync/v4/redis/redigo"
	"github.com/gomodule/redigo/redis"
)

var unlockScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func work() error { return nil }

type Mutex struct {
	pool  *redis.Pool
	key   string
	token string
}

func (m *Mutex) Unlock() error {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := unlockScript.Do(conn, m.key, m.token)
	return err
}

// Only the error of SET NX is checked: a held lock comes back as nil, nil.
func (m *Mutex) TryLock() (bool, error) {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := conn.Do("SET", m.key, m.token, "NX", "PX", 30000) // want `only the error of SET is checked: a held lock is a nil reply with a nil error, so this runs without the lock; check the reply too`
	if err != nil {
		return false, err
	}
	return true, nil
}

// The reply is dropped: the work runs whether or not the key was set.
func runJob(c redis.Conn, key, token string) {
	c.Do("SET", key, token, "NX", "EX", 30) // want `the reply of SET is discarded`
	_ = work()
	c.Do("DEL", key)
}

// redis.Bool cannot read "OK": the lock is never reported acquired.
func (m *Mutex) Lock() (bool, error) {
	conn := m.pool.Get()
	defer conn.Close()
	ok, err := redis.Bool(conn.Do("SET", m.key, m.token, "NX", "EX", 30)) // want `redis.Bool fails on the reply SET gives when it sets the key`
	if err != nil {
		return false, err
	}
	return ok, nil
}

// The same, returned as is.
func (m *Mutex) LockInt() (int, error) {
	conn := m.pool.Get()
	defer conn.Close()
	return redis.Int(conn.Do("set", m.key, m.token, "ex", 30, "nx")) // want `redis.Int fails on the reply SET gives`
}

// redis.String on SETNX's integer reply fails too.
func lockString(c redis.Conn, key string) (string, error) {
	return redis.String(c.Do("SETNX", key, "1")) // want `redis.String fails on the reply SETNX gives`
}

// Only the busy error of a String read is handled: a timeout is "acquired".
func (m *Mutex) TryLockString() (bool, error) {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := redis.String(conn.Do("SET", m.key, m.token, "NX", "EX", 30)) // want `only the busy reply of SET \(redis.ErrNil\) is handled`
	if errors.Is(err, redis.ErrNil) {
		return false, nil
	}
	return true, nil
}

// SETNX read with redis.Int, error only: busy is 0 with a nil error.
func lockCount(c redis.Conn, key, token string) (bool, error) {
	_, err := redis.Int(c.Do("SETNX", key, token)) // want `only the error of SETNX is checked: a held lock is 0 with a nil error, so this runs without the lock; check the reply too`
	if err != nil {
		return false, err
	}
	c.Do("EXPIRE", key, 30)
	return true, nil
}

func releaseCount(c redis.Conn, key string) { c.Do("DEL", key) }

// SETNX read with redis.Bool, error only.
func lockBool(c redis.Conn, key, token string) (bool, error) {
	if _, err := redis.Bool(c.Do("SETNX", key, token)); err != nil { // want `only the error of SETNX is checked: a held lock is false with a nil error, so this runs without the lock; check the bool too`
		return false, err
	}
	c.Do("EXPIRE", key, 30)
	return true, nil
}

func releaseBool(c redis.Conn, key string) { c.Do("DEL", key) }

// The raw reply of SETNX, error only: no fix (an int64 in an interface).
func lockRaw(c redis.Conn, key, token string) error {
	if _, err := c.Do("SETNX", key, token); err != nil { // want `only the error of SETNX is checked: a held lock is 0 with a nil error, so this runs without the lock; check the reply too`
		return err
	}
	c.Do("EXPIRE", key, 30)
	return nil
}

func releaseRaw(c redis.Conn, key string) { c.Do("DEL", key) }

// Tested with err == nil only: busy (nil, nil) returns true.
func acquireFlow(c redis.Conn, key, token string) (bool, error) {
	reply, err := c.Do("SET", key, token, "NX", "EX", 30) // want `when SET finds the lock busy, this path still returns true \(acquired\): two holders run at once; return false`
	if reply == "OK" || err == nil {
		return true, nil
	}
	return false, err
}

func releaseFlow(c redis.Conn, key, token string) error {
	_, err := unlockScript.Do(c, key, token)
	return err
}

// --- silent ---

// The research's idiom: String, ErrNil for busy, any other error returned.
func acquire(c redis.Conn, key, token string) (bool, error) {
	_, err := redis.String(c.Do("SET", key, token, "NX", "PX", 30000))
	if errors.Is(err, redis.ErrNil) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

func release(c redis.Conn, key, token string) error {
	_, err := unlockScript.Do(c, key, token)
	return err
}

// The raw reply tested for nil, the error returned.
func acquireRaw(c redis.Conn, key, token string) (bool, error) {
	reply, err := c.Do("SET", key, token, "NX", "EX", 30)
	if err != nil {
		return false, err
	}
	if reply == nil {
		return false, nil
	}
	return true, nil
}

func releaseRaw2(c redis.Conn, key, token string) {
	unlockScript.Do(c, key, token)
}

// Nil reply or failure: both nil, both "not acquired".
func acquireNil(c redis.Conn, key, token string) bool {
	reply, _ := c.Do("SET", key, token, "NX", "EX", 30)
	return reply != nil
}

func releaseNil(c redis.Conn, key, token string) {
	unlockScript.Do(c, key, token)
}

// SETNX with redis.Bool, both outcomes read.
func acquireBool(c redis.Conn, key, token string) (bool, error) {
	ok, err := redis.Bool(c.Do("SETNX", key, token))
	if err != nil || !ok {
		return false, err
	}
	c.Do("EXPIRE", key, 30)
	return true, nil
}

func releaseBool2(c redis.Conn, key string) { c.Do("DEL", key) }

// SETNX with redis.Int compared with 1.
func acquireInt(c redis.Conn, key, token string) (bool, error) {
	n, err := redis.Int(c.Do("SETNX", key, token))
	if err != nil {
		return false, err
	}
	if n != 1 {
		return false, nil
	}
	c.Do("EXPIRE", key, 30)
	return true, nil
}

func releaseInt(c redis.Conn, key string) { c.Do("DEL", key) }

// Queued in a transaction: the reply comes from EXEC.
func queued(c redis.Conn, key, token string) error {
	c.Send("MULTI")
	c.Send("SET", key, token, "NX", "EX", 30)
	_, err := c.Do("EXEC")
	return err
}

func releaseQueued(c redis.Conn, key string) { c.Do("DEL", key) }

// A set-once marker, not a lock: nothing releases it.
func markSeen(c redis.Conn, id string) {
	c.Do("SET", "seen:"+id, 1, "NX", "EX", 86400)
}

// redsync with its redigo pool: the library reads the replies.
func withRedsync(ctx context.Context, pool *redis.Pool) error {
	rs := redsync.New(redsyncredigo.NewPool(pool))
	m := rs.NewMutex("lock:report")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer func() {
		if _, err := m.UnlockContext(ctx); err != nil {
			log.Println(err)
		}
	}()
	return work()
}
