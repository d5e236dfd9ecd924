package redigo

import (
	"context"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
)

const lockSeconds = 30

var unlockScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// A keep-alive goroutine with a bare EXPIRE: it extends whoever holds the
// lock now. The fix runs the compare-and-pexpire script, in milliseconds.
func withLock(ctx context.Context, pool *redis.Pool, key, token string, work func()) error {
	conn := pool.Get()
	defer conn.Close()
	if _, err := redis.String(conn.Do("SET", key, token, "NX", "EX", lockSeconds)); err != nil {
		return err
	}
	defer unlockScript.Do(conn, key, token)
	go func() {
		c := pool.Get()
		defer c.Close()
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE renews lock key in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script`
			}
		}
	}()
	work()
	return nil
}

type Mutex struct {
	pool  *redis.Pool
	key   string
	token string
	ms    int64
}

func (m *Mutex) Lock() (bool, error) {
	conn := m.pool.Get()
	defer conn.Close()
	reply, err := conn.Do("SET", m.key, m.token, "NX", "PX", m.ms)
	return reply != nil, err
}

// PEXPIRE takes milliseconds, as the script does; the reply is read
// through redis.Int (1 or 0 from both).
func (m *Mutex) Refresh() (bool, error) {
	conn := m.pool.Get()
	defer conn.Close()
	n, err := redis.Int(conn.Do("PEXPIRE", m.key, m.ms)) // want `PEXPIRE renews lock m.key in Refresh`
	return n == 1, err
}

// EXPIRE with a count of seconds in a variable: times 1000.
func (m *Mutex) Extend(secs int) error {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := conn.Do("EXPIRE", m.key, secs) // want `EXPIRE renews lock m.key in Extend`
	return err
}

// A time.Duration TTL (sent as "30s": LV104): reported, no fix.
func (m *Mutex) KeepAlive(ttl time.Duration) {
	conn := m.pool.Get()
	defer conn.Close()
	conn.Do("EXPIRE", m.key, ttl) // want `EXPIRE renews lock m.key in KeepAlive`
}

// EXPIRE NX only sets a TTL where there is none: no script equivalent.
func (m *Mutex) Heartbeat() {
	conn := m.pool.Get()
	defer conn.Close()
	conn.Do("EXPIRE", m.key, lockSeconds, "NX") // want `EXPIRE renews lock m.key in Heartbeat`
}

// A script that extends without comparing: reported, no fix.
func renewLoop(c redis.Conn, id int, token string, stop <-chan struct{}) {
	key := fmt.Sprintf("lock:job:%d", id)
	c.Do("SET", key, token, "NX", "PX", 30000)
	for {
		select {
		case <-stop:
			return
		case <-time.After(10 * time.Second):
		}
		c.Do("EVAL", `return redis.call("pexpire", KEYS[1], ARGV[1])`, 1, key, 30000) // want `script renews lock key in a loop without comparing its value`
	}
}

// GET compared with the token, then EXPIRE: two round trips.
func checked(c redis.Conn, key, token string, stop <-chan struct{}) {
	c.Do("SET", key, token, "NX", "EX", lockSeconds)
	for range time.Tick(10 * time.Second) {
		if v, _ := redis.String(c.Do("GET", key)); v != token {
			return
		}
		c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE renews lock key in a loop after a separate GET`
	}
}

// --- silent ---

var renewScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// The owner-checked renewal.
func renewed(c redis.Conn, key, token string, stop <-chan struct{}) {
	c.Do("SET", key, token, "NX", "EX", lockSeconds)
	for range time.Tick(10 * time.Second) {
		if n, err := redis.Int(renewScript.Do(c, key, token, 30000)); err != nil || n == 0 {
			return
		}
	}
}

// SETNX then EXPIRE: the first TTL, LV101's finding.
func firstTTL(c redis.Conn, key, token string) {
	for i := 0; i < 3; i++ {
		if ok, _ := redis.Bool(c.Do("SETNX", key, token)); ok {
			c.Do("EXPIRE", key, lockSeconds)
			return
		}
	}
}

// A session key refreshed in a loop: not a lock.
func session(c redis.Conn, id string, stop <-chan struct{}) {
	for range time.Tick(time.Minute) {
		c.Do("EXPIRE", "session:"+id, 3600)
	}
}
