package redigo

import (
	"github.com/gomodule/redigo/redis"
)

// The raw reply compared with nil; the lock released by its
// acquire/release counterpart. Reported, no fix (go-redis only).
func acquire(conn redis.Conn, key, token string) (bool, error) {
	reply, err := conn.Do("GET", key)
	if err != nil {
		return false, err
	}
	if reply != nil {
		return false, nil
	}
	if _, err := conn.Do("SET", key, token, "PX", 30000); err != nil { // want `SET of key after a GET found it missing`
		return false, err
	}
	return true, nil
}

func release(conn redis.Conn, key string) error {
	_, err := conn.Do("DEL", key)
	return err
}

// Through a conversion: redis.ErrNil is the missing key.
func runExclusive(pool *redis.Pool, job, token string, work func()) error {
	conn := pool.Get()
	defer conn.Close()
	key := "lock:" + job
	if _, err := redis.String(conn.Do("GET", key)); err != redis.ErrNil {
		return err
	}
	conn.Do("SET", key, token, "EX", 60) // want `SET of key after a GET found it missing`
	work()
	conn.Do("DEL", key)
	return nil
}

// --- silent ---

// A cache fill.
func cached(conn redis.Conn, key string, fill func() string) (string, error) {
	v, err := redis.String(conn.Do("GET", key))
	if err == redis.ErrNil {
		v = fill()
		_, err = conn.Do("SET", key, v, "EX", 300)
	}
	return v, err
}
