package redigo

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

const lockSeconds = 30

// MULTI, SETNX, EXPIRE, EXEC: the EXPIRE runs even when SETNX lost.
// EXEC's reply is dropped: the TTL moves into SET NX EX.
func acquireTx(c redis.Conn, key, token string) error {
	c.Send("MULTI")
	c.Send("SETNX", key, token)
	c.Send("EXPIRE", key, lockSeconds) // want `EXPIRE in the same transaction as SETNX runs even when it lost, on another owner's lock key; use Do\("SET", k, v, "NX", "PX", ms\)`
	_, err := c.Do("EXEC")
	return err
}

// EXEC's reply is read: reported, no fix (its list would shrink).
func acquireTxRead(c redis.Conn, key, token string) (bool, error) {
	c.Send("MULTI")
	c.Send("SETNX", key, token)
	c.Send("PEXPIRE", key, 30000) // want `PEXPIRE in the same transaction as SETNX runs even when it lost, on another owner's lock key; use Do\("SET", k, v, "NX", "PX", ms\)`
	vals, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		return false, err
	}
	return vals[0] == int64(1), nil
}

// Do inside MULTI queues too (the reply is QUEUED); a pooled connection.
func acquireDo(pool *redis.Pool, jobID int, token string) {
	conn := pool.Get()
	defer conn.Close()
	conn.Do("MULTI")
	conn.Do("SETNX", fmt.Sprintf("lock:job:%d", jobID), token)
	conn.Do("EXPIRE", fmt.Sprintf("lock:job:%d", jobID), 60) // want `EXPIRE in the same transaction as SETNX runs even when it lost, on another owner's lock fmt\.Sprintf\("lock:job:%d", jobID\); use Do\("SET", k, v, "NX", "PX", ms\)`
	conn.Do("EXEC")
}

// SET NX with no TTL, in a transaction: EX is appended.
func setNXTx(c redis.Conn, key, token string) {
	c.Send("MULTI")
	c.Send("SET", key, token, "NX")
	c.Send("EXPIRE", key, lockSeconds) // want `EXPIRE in the same transaction as SET runs even when it lost, on another owner's lock key; add "PX", ms to the SET`
	c.Do("EXEC")
}

// EXPIRE queued before SETNX.
func before(c redis.Conn, key, token string) {
	c.Send("MULTI")
	c.Send("EXPIRE", key, lockSeconds) // want `EXPIRE before SETNX in the same transaction expires nothing when the key is free, so the lock key is held forever; use Do\("SET", k, v, "NX", "PX", ms\)`
	c.Send("SETNX", key, token)
	c.Do("EXEC")
}

// A pipeline: SETNX sent with Send, EXPIRE with the Do that flushes both.
// The Do is what sends the batch: no fix.
func pipelined(c redis.Conn, key, token string) {
	c.Send("SETNX", key, token)
	c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE in the same pipeline as SETNX runs even when it lost, on another owner's lock key; use Do\("SET", k, v, "NX", "PX", ms\)`
}

// A pipeline read reply by reply: no fix (the Receive count would be off).
func pipelinedReceive(c redis.Conn, key, token string) (bool, error) {
	c.Send("SETNX", key, token)
	c.Send("EXPIRE", key, lockSeconds) // want `EXPIRE in the same pipeline as SETNX runs even when it lost, on another owner's lock key; use Do\("SET", k, v, "NX", "PX", ms\)`
	c.Flush()
	ok, err := redis.Bool(c.Receive())
	c.Receive()
	return ok, err
}

// A pipeline sent by Do(""), whose reply is dropped: fixed.
func pipelinedDo(c redis.Conn, key, token string) {
	c.Send("SETNX", key, token)
	c.Send("EXPIRE", key, lockSeconds) // want `EXPIRE in the same pipeline as SETNX runs even when it lost, on another owner's lock key; use Do\("SET", k, v, "NX", "PX", ms\)`
	c.Do("")
}

// GETSET takeover queued with EXPIRE: reported, no fix.
func takeover(c redis.Conn, key, token string) {
	c.Send("MULTI")
	c.Send("GETSET", key, token)
	c.Send("EXPIRE", key, lockSeconds) // want `EXPIRE in the same transaction as GETSET runs even when the takeover lost, on another owner's lock key; use one SET with the TTL`
	c.Do("EXEC")
}

// --- silent ---

// SET NX EX alone in the transaction.
func correct(c redis.Conn, key, token string) {
	c.Send("MULTI")
	c.Send("SET", key, token, "NX", "EX", lockSeconds)
	c.Do("EXEC")
}

// Two transactions: EXEC between the acquire and the expire.
func twoTx(c redis.Conn, key, token string) {
	c.Send("MULTI")
	c.Send("SETNX", key, token)
	c.Do("EXEC")
	c.Send("MULTI")
	c.Send("EXPIRE", key, lockSeconds)
	c.Do("EXEC")
}

// Two connections: not one batch.
func twoConns(pool *redis.Pool, key, token string) {
	a, b := pool.Get(), pool.Get()
	defer a.Close()
	defer b.Close()
	a.Send("MULTI")
	a.Send("SETNX", key, token)
	b.Send("EXPIRE", key, lockSeconds)
	a.Do("EXEC")
	b.Flush()
}

// The pipeline was flushed between the two: separate batches (the
// EXPIRE then runs as LV101's second round trip).
func flushed(c redis.Conn, key, token string) {
	c.Send("SETNX", key, token)
	c.Flush()
	c.Receive()
	c.Send("EXPIRE", key, lockSeconds)
	c.Flush()
	c.Receive()
}

// Another key.
func otherKey(c redis.Conn, key, token string) {
	c.Send("MULTI")
	c.Send("SETNX", key, token)
	c.Send("EXPIRE", key+":meta", lockSeconds)
	c.Do("EXEC")
}
