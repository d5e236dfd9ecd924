package redigo

import (
	"context"
	"fmt"

	"github.com/gomodule/redigo/redis"
)

const cmdSetNX = "SETNX"

const lockSeconds = 30

// The incident's shape: SETNX, then EXPIRE only if acquired. The reply is
// read with redis.Bool, which SET NX's "OK" would break: the fix reads it
// with redis.String and turns redis.ErrNil (busy) back into (false, nil).
func acquireIfOK(c redis.Conn, key, token string) (bool, error) {
	ok, err := redis.Bool(c.Do("SETNX", key, token))
	if err != nil {
		return false, err
	}
	if ok {
		c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after SETNX acquired key without a TTL: a crash in between leaves the lock held forever; use Do\("SET", k, v, "NX", "PX", ms\)`
	}
	return ok, nil
}

// The reply is dropped: SET NX EX takes the TTL.
func dropped(c redis.Conn, key, token string) {
	c.Do("SETNX", key, token)
	c.Do("EXPIRE", key, 30) // want `EXPIRE after SETNX wrote key without a TTL`
}

// Only the error is read; PEXPIRE's milliseconds go to PX.
func errOnly(c redis.Conn, jobID int, token string) error {
	if _, err := c.Do("setnx", fmt.Sprintf("lock:job:%d", jobID), token); err != nil {
		return err
	}
	if _, err := c.Do("PEXPIRE", fmt.Sprintf("lock:job:%d", jobID), 30000); err != nil { // want `PEXPIRE after SETNX`
		return err
	}
	return nil
}

// SET NX with no TTL keeps its reply: the EX is appended whatever reads it.
func setNX(c redis.Conn, key, token string) (bool, error) {
	reply, err := c.Do("SET", key, token, "NX")
	if err != nil || reply == nil {
		return false, err
	}
	c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after SET wrote key without a TTL`
	return true, nil
}

type Mutex struct {
	pool *redis.Pool
	key  string
}

// A pooled connection; the command name is a constant.
func (m *Mutex) Lock(token string) {
	conn := m.pool.Get()
	defer conn.Close()
	conn.Do(cmdSetNX, m.key, token)
	conn.Do("EXPIRE", m.key, lockSeconds) // want `EXPIRE after SETNX`
}

// The context forms.
func withContext(ctx context.Context, c redis.Conn, key, token string) error {
	if _, err := redis.DoContext(c, ctx, "SETNX", key, token); err != nil {
		return err
	}
	redis.DoContext(c, ctx, "EXPIRE", key, 30) // want `EXPIRE after SETNX`
	return nil
}

// GETSET takeover (old SETNX recipe): the GETSET and the TTL become one
// script (EXPIRE's seconds in milliseconds).
func takeover(c redis.Conn, key, token string) {
	c.Do("GETSET", key, token)
	c.Do("EXPIRE", key, 30) // want `EXPIRE after GETSET, which clears the TTL of`
}

// The EXPIRE's reply is used: reported, no fix.
func expireUsed(c redis.Conn, key string) (int, error) {
	c.Do("SETNX", key, "t")
	return redis.Int(c.Do("EXPIRE", key, 30)) // want `EXPIRE after SETNX`
}

// --- silent ---

// SET NX with a TTL: correct.
func correct(c redis.Conn, key, token string) (string, error) {
	return redis.String(c.Do("SET", key, token, "NX", "PX", 30000))
}

// The EXPIRE of another key.
func otherKey(c redis.Conn, key string) {
	c.Do("SETNX", key, "t")
	c.Do("EXPIRE", key+":meta", 60)
}

// INCR then EXPIRE on a rate counter: not a lock.
func rate(c redis.Conn, key string) {
	n, _ := redis.Int(c.Do("INCR", key))
	if n == 1 {
		c.Do("EXPIRE", key, 60)
	}
}

// Queued in one transaction: LV102's finding, not this one's.
func inTx(c redis.Conn, key string) {
	c.Send("MULTI")
	c.Send("SETNX", key, "t")
	c.Send("EXPIRE", key, 30)
	c.Do("EXEC")
}

// Another connection's EXPIRE, before the acquire.
func before(c redis.Conn, key string) {
	c.Do("EXPIRE", key, 30)
	c.Do("SETNX", key, "t")
}

// The value alone through redis.Bool: SET NX has no error-only read to
// compare with nil here, so no fix.
func valueOnly(c redis.Conn, key, token string) bool {
	ok, _ := redis.Bool(c.Do("SETNX", key, token))
	if ok {
		c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after SETNX`
	}
	return ok
}

// An integer read: no fix.
func asInt(c redis.Conn, key, token string) (int, error) {
	n, err := redis.Int(c.Do("SETNX", key, token))
	if n == 1 {
		c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after SETNX`
	}
	return n, err
}
