// Package redigo queues a lock's SETNX and EXPIRE through helpers that
// Send on the caller's connection, inside the caller's MULTI.
package redigo

import "github.com/gomodule/redigo/redis"

// queueLock queues both commands on the caller's connection.
func queueLock(c redis.Conn, key, token string) {
	c.Send("SETNX", key, token)
	c.Send("EXPIRE", key, 30) // want `EXPIRE in the same pipeline as SETNX runs even when it lost, on another owner's lock key; use Do\("SET", k, v, "NX", "PX", ms\)`
}

func takeJob(c redis.Conn, id, token string) error {
	c.Send("MULTI")
	queueLock(c, "job:"+id, token)
	_, err := c.Do("EXEC")
	return err
}

// sendLock and sendTTL each queue one command.
func sendLock(c redis.Conn, key string) error {
	return c.Send("SETNX", "lock:"+key, "1")
}

func sendTTL(c redis.Conn, key string, secs int) error {
	return c.Send("EXPIRE", "lock:"+key, secs)
}

func twoHelpers(c redis.Conn, id string) error {
	c.Send("MULTI")
	sendLock(c, id)
	sendTTL(c, id, 30) // want `sendTTL \(EXPIRE at redigo/redigo\.go:26\) in the same transaction as sendLock runs even when it lost, on another owner's lock id; set the TTL in the SETNX inside sendLock`
	_, err := c.Do("EXEC")
	return err
}

// sendSetNX takes the key as it is; its caller queues the EXPIRE.
func sendSetNX(c redis.Conn, key string) error {
	return c.Send("SETNX", key, "1")
}

func helperThenInline(c redis.Conn, id string) error {
	c.Send("MULTI")
	sendSetNX(c, "job:"+id)
	c.Send("EXPIRE", "job:"+id, 30) // want `EXPIRE in the same transaction as sendSetNX runs even when it lost, on another owner's lock "job:" \+ id; set the TTL in the SETNX inside sendSetNX`
	_, err := c.Do("EXEC")
	return err
}

// --- silent ---

// A rate limiter: INCR and EXPIRE queued through helpers.
func sendIncr(c redis.Conn, key string) error {
	return c.Send("INCR", "lock:"+key)
}

func allow(c redis.Conn, user string) (int, error) {
	c.Send("MULTI")
	sendIncr(c, user)
	sendTTL(c, user, 60)
	vals, err := redis.Ints(c.Do("EXEC"))
	if err != nil {
		return 0, err
	}
	return vals[0], nil
}

// The helpers on different keys, and in two transactions.
func otherKey(c redis.Conn, id, other string) error {
	c.Send("MULTI")
	sendLock(c, id)
	sendTTL(c, other, 30)
	_, err := c.Do("EXEC")
	return err
}

func twoTx(c redis.Conn, id string) error {
	c.Send("MULTI")
	sendLock(c, id)
	if _, err := c.Do("EXEC"); err != nil {
		return err
	}
	c.Send("MULTI")
	sendTTL(c, id, 30)
	_, err := c.Do("EXEC")
	return err
}
