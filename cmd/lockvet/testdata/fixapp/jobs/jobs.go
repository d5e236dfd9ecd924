// Package jobs runs scheduled jobs under redigo locks.
package jobs

import (
	"github.com/gomodule/redigo/redis"
)

// RunOnce runs job when no other process runs it: the lock's value is the
// same for every holder and the release a bare DEL (LV204, LV201).
func RunOnce(pool *redis.Pool, name string, job func()) error {
	c := pool.Get()
	defer c.Close()
	reply, err := c.Do("SET", "lock:job:"+name, "locked", "NX", "EX", 60)
	if err != nil {
		return err
	}
	if reply == nil {
		return nil
	}
	defer c.Do("DEL", "lock:job:"+name)
	job()
	return nil
}
