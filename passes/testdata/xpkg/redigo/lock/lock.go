// Package lock holds lock helpers on redigo.
package lock

import (
	"github.com/gomodule/redigo/redis"
)

// Lock takes key for ttl seconds.
func Lock(c redis.Conn, key string, ttl int) (bool, error) { // want Lock:"acquire-funcs:key=1,ttl=2,unit=seconds"
	reply, err := redis.String(c.Do("SET", key, "1", "NX", "EX", ttl))
	return reply == "OK", err
}

// Unlock deletes key, whoever holds it.
func Unlock(c redis.Conn, key string) error { // want Unlock:"release-funcs:key=1"
	_, err := c.Do("DEL", key)
	return err
}

// Forget deletes key, whoever holds it: not paired with Lock here.
func Forget(c redis.Conn, key string) error { // want Forget:"release-funcs:key=1"
	_, err := c.Do("DEL", key)
	return err
}

// Cached reads a cache entry: no fact.
func Cached(c redis.Conn, key string) (string, error) {
	return redis.String(c.Do("GET", key))
}
