package redigo

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

var unlockScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func work() {}

// SETNX, then DEL: a holder that dies in between leaves the lock forever.
func runOnce(c redis.Conn, key, token string) error {
	ok, err := redis.Bool(c.Do("SETNX", key, token)) // want `lock key is acquired by SETNX with no TTL and nothing expires it: a dead holder keeps it forever; use Do\("SET", k, v, "NX", "PX", ms\); then its DEL must check the owner \(LV201\)`
	if err != nil || !ok {
		return err
	}
	work()
	_, err = c.Do("DEL", key)
	return err
}

type Mutex struct {
	pool  *redis.Pool
	key   string
	token string
}

// SET NX with no EX/PX, released by a compare-and-delete script elsewhere.
func (m *Mutex) Lock() error {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := redis.String(conn.Do("SET", m.key, m.token, "NX")) // want `lock m\.key is acquired by SET with no TTL and nothing expires it: a dead holder keeps it forever; add "PX", ms to the SET`
	return err
}

func (m *Mutex) Unlock() error {
	conn := m.pool.Get()
	defer conn.Close()
	_, err := unlockScript.Do(conn, m.key, m.token)
	return err
}

// KEEPTTL on an absent key keeps no TTL either.
func keepTTL(c redis.Conn, id int) {
	key := fmt.Sprintf("lock:job:%d", id)
	if reply, _ := c.Do("SET", key, "t", "NX", "KEEPTTL"); reply == nil { // want `lock key is acquired by SET with no TTL`
		return
	}
	work()
	c.Do("UNLINK", key)
}

// --- silent ---

// SET NX with a TTL.
func withTTL(c redis.Conn, key, token string) {
	if reply, _ := c.Do("SET", key, token, "NX", "PX", 30000); reply == nil {
		return
	}
	work()
	unlockScript.Do(c, key, token)
}

// SETNX then EXPIRE: LV101's finding.
func thenExpire(c redis.Conn, key, token string) {
	c.Do("SETNX", key, token)
	c.Do("EXPIRE", key, 30)
	work()
	c.Do("DEL", key)
}

// A set-once marker: nothing deletes it.
func marker(c redis.Conn, id string) (bool, error) {
	return redis.Bool(c.Do("SETNX", "migrated:"+id, 1))
}

// Expired in a transaction with the acquire (LV102's finding).
func inTx(c redis.Conn, key string) {
	c.Send("MULTI")
	c.Send("SETNX", key, "t")
	c.Send("EXPIRE", key, 30)
	c.Do("EXEC")
	work()
	c.Do("DEL", key)
}
