package redigo

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

func refresh() {}

// SETNX read as an integer that only tests use: SET NX replies "OK" or
// nil, read through redis.String, and the tests test for "OK".
func renewMarker(c redis.Conn, key string) {
	lock, _ := redis.Int(c.Do("setnx", key, 1))
	if lock == 1 {
		_, _ = c.Do("expire", key, 86400) // want `EXPIRE after SETNX`
		refresh()
	}
}

// The tests, any way round: > 0 holds for the acquired answer, 0 == n
// for the busy one.
func tests(c redis.Conn, key, token string) bool {
	n, _ := redis.Int64(c.Do("SETNX", key, token))
	if 0 == n {
		return false
	}
	if n > 0 {
		c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after SETNX`
	}
	return true
}

// A bool read that only conditions use.
func boolTests(c redis.Conn, key, token string) bool {
	ok, _ := redis.Bool(c.Do("SETNX", key, token))
	if !ok {
		return false
	}
	c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after SETNX`
	return true
}

// The value is printed: it must stay 1 or 0, no fix.
func printed(c redis.Conn, key, token string) {
	n, _ := redis.Int(c.Do("SETNX", key, token))
	fmt.Println("setnx:", n)
	if n == 1 {
		c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after SETNX`
	}
}

// A test that holds for neither answer alone (n < 2): no fix.
func vacuous(c redis.Conn, key, token string) {
	n, _ := redis.Int(c.Do("SETNX", key, token))
	if n < 2 {
		c.Do("EXPIRE", key, lockSeconds) // want `EXPIRE after SETNX`
	}
}
