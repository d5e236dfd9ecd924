package redigo

import (
	"github.com/gomodule/redigo/redis"
)

var unlockScript = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// GET, compare in Go, DEL: the lock can change hands in between. redigo
// replies come with an error, so the value is never read in place: no fix.
func release(c redis.Conn, key, token string) error {
	v, err := redis.String(c.Do("GET", key))
	if err != nil {
		return err
	}
	if v == token {
		_, err = c.Do("DEL", key) // want `DEL of key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
	return err
}

// The compare in the if's init; a pooled connection.
func releasePooled(pool *redis.Pool, key, token string) {
	conn := pool.Get()
	defer conn.Close()
	if v, _ := redis.String(conn.Do("GET", key)); v == token {
		conn.Do("UNLINK", key) // want `UNLINK of key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
}

// Compared with a constant on a lock key: no owner token at all.
func releaseConst(c redis.Conn, key string) {
	c.Do("SET", key, "1", "NX", "EX", 30)
	if v, _ := redis.String(c.Do("GET", key)); v != "1" {
		return
	}
	c.Do("DEL", key) // want `DEL of key after a separate GET compare can delete another holder's lock; compare and delete in one step; "1" is shared by every holder \(LV204\)`
}

// --- silent ---

// WATCH, GET, MULTI, DEL, EXEC: EXEC fails if the key changed.
func watched(c redis.Conn, key, token string) error {
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

// Compare and delete in one script.
func scripted(c redis.Conn, key, token string) error {
	_, err := unlockScript.Do(c, key, token)
	return err
}

// A GET of another key.
func otherKey(c redis.Conn, key, token string) {
	if v, _ := redis.String(c.Do("GET", key+":owner")); v == token {
		c.Do("DEL", key+":data")
	}
}

// A cache entry refreshed when stale: compared with a constant, no lock.
func cache(c redis.Conn, key string) {
	if v, _ := redis.String(c.Do("GET", key)); v == "stale" {
		c.Do("DEL", key)
	}
}

// A one-time SMS code: not a lock (no NX acquire, no lock name).
func verifyCode(c redis.Conn, phone, input string) (bool, error) {
	key := "sms:code:" + phone
	code, err := redis.String(c.Do("GET", key))
	if err != nil || code != input {
		return false, err
	}
	_, err = c.Do("DEL", key)
	return err == nil, err
}
