// Package redigodecl has no compare-and-delete script yet: the fixes
// declare one (once) after the imports.
package redigodecl

import (
	"github.com/gomodule/redigo/redis"
)

func work() {}

func first(c redis.Conn, key, token string) {
	if reply, _ := c.Do("SET", key, token, "NX", "PX", 30000); reply == nil {
		return
	}
	work()
	c.Do("DEL", key) // want `DEL of lock key key does not check the owner`
}

func second(pool *redis.Pool, key, token string) error {
	conn := pool.Get()
	defer conn.Close()
	if _, err := redis.String(conn.Do("SET", key, token, "NX", "EX", 10)); err != nil {
		return err
	}
	work()
	_, err := conn.Do("UNLINK", key) // want `UNLINK of lock key key does not check the owner`
	return err
}
