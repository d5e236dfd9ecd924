package redigo

import (
	"errors"
	"fmt"

	"github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("busy")

// The transaction's replies read by index, for the SETNX reply alone,
// after an error check that leaves: one SET NX EX sent alone, its reply
// tested against nil. The later reuse of the reply list declares it.
func handler(c redis.Conn, id string) error {
	c.Send("MULTI")
	c.Send("SETNX", "lock:"+id, "1")
	c.Send("EXPIRE", "lock:"+id, lockSeconds) // want `EXPIRE in the same transaction as SETNX runs even when it lost, on another owner's lock "lock:" \+ id; use Do\("SET", k, v, "NX", "PX", ms\)$`
	arr, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		return err
	}
	locktag, _ := redis.Int(arr[0], nil)
	if locktag == 0 {
		return errBusy
	}
	defer c.Do("DEL", "lock:"+id)

	c.Send("MULTI")
	c.Send("GET", "count:"+id)
	arr, err = redis.Values(c.Do("EXEC"))
	if err != nil {
		return err
	}
	n, _ := redis.Int(arr[0], nil)
	fmt.Println(n)
	return nil
}

// A bool read, in milliseconds.
func boolRead(c redis.Conn, key, token string) bool {
	c.Send("MULTI")
	c.Send("SETNX", key, token)
	c.Send("PEXPIRE", key, 30000) // want `PEXPIRE in the same transaction as SETNX runs even when it lost, on another owner's lock key; use Do\("SET", k, v, "NX", "PX", ms\)$`
	vals, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		return false
	}
	ok, _ := redis.Bool(vals[0], nil)
	if !ok {
		return false
	}
	defer c.Do("DEL", key)
	return true
}

// The EXPIRE's reply is read too: no fix.
func expireRead(c redis.Conn, key, token string) error {
	c.Send("MULTI")
	c.Send("SETNX", key, token)
	c.Send("EXPIRE", key, lockSeconds) // want `\(no fix: the transaction.s replies are read more than once\)`
	vals, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		return err
	}
	set, _ := redis.Int(vals[0], nil)
	ttl, _ := redis.Int(vals[1], nil)
	if set == 0 || ttl == 0 {
		return errBusy
	}
	defer c.Do("DEL", key)
	return nil
}

// The error is logged and the code goes on: no fix.
func errGoesOn(c redis.Conn, key, token string) {
	c.Send("MULTI")
	c.Send("SETNX", key, token)
	c.Send("EXPIRE", key, lockSeconds) // want `\(no fix: the transaction's error is not checked\)`
	vals, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		fmt.Println(err)
	}
	if n, _ := redis.Int(vals[0], nil); n == 1 {
		defer c.Do("DEL", key)
	}
}

// The value is printed: no fix.
func printed(c redis.Conn, key, token string) error {
	c.Send("MULTI")
	c.Send("SETNX", key, token)
	c.Send("EXPIRE", key, lockSeconds) // want `\(no fix: n is used other than in tests\)`
	vals, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		return err
	}
	n, _ := redis.Int(vals[0], nil)
	fmt.Println("setnx", n)
	if n == 0 {
		return errBusy
	}
	defer c.Do("DEL", key)
	return nil
}

// Another command in the transaction: no fix.
func another(c redis.Conn, key, token string) error {
	c.Send("MULTI")
	c.Send("SETNX", key, token)
	c.Send("EXPIRE", key, lockSeconds) // want `\(no fix: the transaction queues other commands\)`
	c.Send("INCR", "attempts")
	vals, err := redis.Values(c.Do("EXEC"))
	if err != nil {
		return err
	}
	if n, _ := redis.Int(vals[0], nil); n == 0 {
		return errBusy
	}
	defer c.Do("DEL", key)
	return nil
}
