// Calls of inferred acquire helpers (redigo).
package redigo

import (
	"github.com/gomodule/redigo/redis"
)

func acquireLock(conn redis.Conn, key string, ttl int) (bool, error) {
	_, err := redis.String(conn.Do("SET", key, "1", "NX", "EX", ttl))
	if err == redis.ErrNil {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

func releaseLock(conn redis.Conn, key string) {
	conn.Do("DEL", key)
}

// --- reported ---

func job(conn redis.Conn, name string) error {
	if _, err := acquireLock(conn, "job:"+name, 30); err != nil { // want `only the error of acquireLock is checked`
		return err
	}
	defer releaseLock(conn, "job:"+name)
	return nil
}

// --- silent ---

func jobOK(conn redis.Conn, name string) error {
	ok, err := acquireLock(conn, "job:"+name, 30)
	if err != nil || !ok {
		return err
	}
	defer releaseLock(conn, "job:"+name)
	return nil
}

// A connection probe.
func ping(conn redis.Conn) error {
	_, err := conn.Do("PING")
	return err
}
