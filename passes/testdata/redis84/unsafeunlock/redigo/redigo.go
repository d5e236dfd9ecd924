// Package redigo is run with lockvet configured for Redis 8.4: a DEL gets
// DELEX … IFEQ as the first fix, and the compare-and-delete script second.
package redigo

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

func work() {}

// DEL and DELEX both reply 1 or 0 through Do's results: the reply keeps
// its meaning, however it is read.
func release(c redis.Conn, key, token string) (bool, error) {
	if _, err := redis.String(c.Do("SET", key, token, "NX", "PX", 30000)); err != nil {
		return false, err
	}
	work()
	n, err := redis.Int(c.Do("DEL", key)) // want `DEL of lock key key does not check the owner`
	return n == 1, err
}

// DoWithTimeout has no script form: DELEX only.
func withTimeout(c redis.Conn, key, token string) {
	c.Do("SET", key, token, "NX", "EX", 30)
	work()
	redis.DoWithTimeout(c, time.Second, "DEL", key) // want `DEL of lock key key does not check the owner`
}
