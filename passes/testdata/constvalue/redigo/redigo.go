package redigo

import (
	"crypto/rand"
	"encoding/hex"
	"os"

	"github.com/gomodule/redigo/redis"
)

var unlockScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func work() {}

// A constant value, released with DEL.
func constant(c redis.Conn, key string) {
	if reply, _ := c.Do("SET", key, "locked", "NX", "EX", 30); reply == nil { // want `lock key is acquired with the constant "locked" and released, so no owner check can tell holders apart; use a random token`
		return
	}
	work()
	c.Do("DEL", key)
}

// The process ID, released by script: the script compares equal for
// every goroutine of the process.
func pid(c redis.Conn, key string) {
	if _, err := redis.String(c.Do("SET", key, os.Getpid(), "NX", "PX", 30000)); err != nil { // want `lock key is acquired with the process ID \(os\.Getpid\(\)\), which repeats across hosts and released, so no owner check can tell holders apart; use a random token`
		return
	}
	work()
	unlockScript.Do(c, key, os.Getpid())
}

// The key as its own value, renewed with EXPIRE.
func ownKey(c redis.Conn, key string, stop <-chan struct{}) {
	c.Do("SET", key, key, "NX", "EX", 30) // want `lock key is acquired with its own key as the value`
	for {
		select {
		case <-stop:
			return
		default:
			c.Do("EXPIRE", key, 30)
		}
	}
}

type Mutex struct {
	conn  redis.Conn
	key   string
	token string
}

func (m *Mutex) Lock() error {
	_, err := redis.String(m.conn.Do("SET", m.key, m.token, "NX", "EX", 30))
	return err
}

// The owner check compares with a constant, not the token written.
func (m *Mutex) Unlock() error {
	_, err := unlockScript.Do(m.conn, m.key, "1") // want `the owner check of lock m.key compares it with "1", a value every caller passes`
	return err
}

// --- silent ---

// A random token per acquisition.
func random(c redis.Conn, key string) error {
	b := make([]byte, 16)
	rand.Read(b)
	token := hex.EncodeToString(b)
	if _, err := redis.String(c.Do("SET", key, token, "NX", "PX", 30000)); err != nil {
		return err
	}
	work()
	_, err := unlockScript.Do(c, key, token)
	return err
}

// A set-once marker: nothing releases it.
func marker(c redis.Conn, id string) {
	c.Do("SET", "done:"+id, 1, "NX", "EX", 86400)
}

// No TTL: the lock cannot pass to another holder while this one holds it.
func noTTL(c redis.Conn, key string) {
	c.Do("SETNX", key, 1)
	work()
	c.Do("DEL", key)
}
