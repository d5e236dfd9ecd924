package redigo

import (
	"github.com/gomodule/redigo/redis"
)

// A print-queue lease that one spooler holds at a time: the same function
// takes it, extends it or hands it back.

// --- reported ---

// WATCH, GET and compare, then the DEL queued with Send and sent by Flush:
// no MULTI, so the WATCH guards nothing.
func spoolLease(c redis.Conn, queue, spooler string, ms int) (bool, error) {
	key := "spool-lease:" + queue
	if _, err := c.Do("WATCH", key); err != nil {
		return false, err
	}
	holder, err := redis.String(c.Do("GET", key))
	if err == redis.ErrNil {
		// nobody spools
	} else if err != nil {
		return false, err
	} else if holder != spooler {
		c.Do("UNWATCH")
		return false, nil
	}
	if ms > 0 {
		c.Send("SET", key, spooler, "PX", ms)
	} else {
		c.Send("DEL", key) // want `DEL of key after a separate GET compare can delete another holder's lock; WATCH does not guard commands sent without MULTI; Send\("MULTI"\) first, Do\("EXEC"\) last`
	}
	return ms > 0, c.Flush()
}

// --- silent ---

// The same lease in MULTI/EXEC.
func spoolLeaseTx(c redis.Conn, queue, spooler string, ms int) error {
	key := "spool-lease:" + queue
	if _, err := c.Do("WATCH", key); err != nil {
		return err
	}
	holder, err := redis.String(c.Do("GET", key))
	if err != nil && err != redis.ErrNil {
		return err
	}
	if err == nil && holder != spooler {
		c.Do("UNWATCH")
		return nil
	}
	c.Send("MULTI")
	if ms > 0 {
		c.Send("SET", key, spooler, "PX", ms)
	} else {
		c.Send("DEL", key)
	}
	_, err = c.Do("EXEC")
	return err
}
