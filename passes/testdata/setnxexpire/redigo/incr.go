package redigo

import (
	"errors"

	"github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("busy")

func work() error { return nil }

// INCR as a lock: the caller whose INCR returns 1 enters; the TTL comes in
// a second round trip.
func incrLock(c redis.Conn, key string) error {
	n, err := redis.Int(c.Do("INCR", key))
	if err != nil {
		return err
	}
	if n != 1 {
		return errBusy
	}
	c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after INCR acquired key without a TTL: a crash in between leaves the lock held forever; use SET key value NX PX ttl \(no fix: INCR takes no TTL, and SET NX replies no count\)`
	defer c.Do("DEL", key)
	return work()
}

// Int64, the work in the branch, released by UNLINK.
func incrEqual(c redis.Conn, job string) error {
	key := "lock:" + job
	n, err := redis.Int64(c.Do("incr", key))
	if err != nil {
		return err
	}
	if n == 1 {
		if _, err := c.Do("PEXPIRE", key, 30000); err != nil { // want `PEXPIRE after INCR acquired key without a TTL`
			return err
		}
		defer c.Do("UNLINK", key)
		return work()
	}
	return errBusy
}

// A switch on the reply.
func incrSwitch(c redis.Conn, key string) error {
	n, err := redis.Int(c.Do("INCR", key))
	if err != nil {
		return err
	}
	switch n {
	case 1:
		c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after INCR acquired key without a TTL`
		defer c.Do("DEL", key)
		return work()
	default:
		return errBusy
	}
}

// --- silent ---

// A rate limiter: the first INCR of a window gives it its TTL, and nothing
// deletes the counter.
func incrWindow(c redis.Conn, key string) (bool, error) {
	n, err := redis.Int(c.Do("INCR", key))
	if err != nil {
		return false, err
	}
	if n == 1 {
		c.Do("EXPIRE", key, 60)
	}
	return n <= 100, nil
}

// The count compared with a limit, then reset: a counter.
func attempts(c redis.Conn, user string) bool {
	n, _ := redis.Int(c.Do("INCR", "attempts:"+user))
	if n > 5 {
		c.Do("DEL", "attempts:"+user)
		c.Do("EXPIRE", "attempts:"+user, 60)
		return false
	}
	return true
}

// The reply returned: a sequence number.
func nextID(c redis.Conn) (int64, error) {
	return redis.Int64(c.Do("INCR", "ids"))
}

// The raw reply, not read through redis.Int: not followed.
func rawReply(c redis.Conn, key string) error {
	reply, err := c.Do("INCR", key)
	if err != nil {
		return err
	}
	if reply.(int64) != 1 {
		return errBusy
	}
	c.Do("EXPIRE", key, lockSeconds)
	defer c.Do("DEL", key)
	return work()
}
