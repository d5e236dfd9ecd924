package redigo

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("busy")

// INCR as a lock that nothing expires: the first caller enters, and a
// crash before the DEL leaves the counter at 1 for good.
func incrNoTTL(c redis.Conn, job string) error {
	key := "lock:incr:" + job
	n, err := redis.Int(c.Do("INCR", key)) // want `lock key is acquired by INCR with no TTL and nothing expires it: a dead holder keeps it forever; use SET key value NX PX ttl; then its DEL must check the owner \(LV201\)`
	if err != nil {
		return err
	}
	if n != 1 {
		return errBusy
	}
	defer c.Do("DEL", key)
	work()
	return nil
}

// --- silent ---

// An INCR lock that is given a TTL (LV101's finding, not this one's).
func incrExpired(c redis.Conn, key string) error {
	n, err := redis.Int64(c.Do("INCR", key))
	if err != nil {
		return err
	}
	if n > 1 {
		return errBusy
	}
	c.Do("EXPIRE", key, 60)
	defer c.Do("DEL", key)
	work()
	return nil
}

// A counter never expired and compared with a limit, then reset.
func attempts(c redis.Conn, user string) bool {
	n, _ := redis.Int(c.Do("INCR", "attempts:"+user))
	if n > 5 {
		c.Do("DEL", "attempts:"+user)
		return false
	}
	return true
}
