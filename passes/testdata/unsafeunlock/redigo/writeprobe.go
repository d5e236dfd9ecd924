package redigo

import "github.com/gomodule/redigo/redis"

// A start-up probe: SET NX PX 1 of a literal key, deleted at once.
func probeWrite(c redis.Conn) error {
	if _, err := c.Do("SET", "lock:probe", "1", "NX", "PX", 1); err != nil {
		return err
	}
	_, err := c.Do("DEL", "lock:probe")
	return err
}
