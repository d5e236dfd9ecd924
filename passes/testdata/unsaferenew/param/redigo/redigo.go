package redigo

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

const lockSeconds = 30

func lock(pool *redis.Pool, name, owner string) (bool, error) {
	conn := pool.Get()
	defer conn.Close()
	reply, err := redis.String(conn.Do("SET", "lock:"+name, owner, "NX", "EX", lockSeconds))
	if err == redis.ErrNil {
		return false, nil
	}
	return reply == "OK", err
}

func unlock(pool *redis.Pool, name string) error {
	conn := pool.Get()
	defer conn.Close()
	_, err := conn.Do("DEL", "lock:"+name)
	return err
}

func keepAlive(pool *redis.Pool, name, owner string, stop <-chan struct{}) {
	conn := pool.Get()
	defer conn.Close()
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			conn.Do("EXPIRE", "lock:"+name, lockSeconds) // want `EXPIRE renews lock "lock:" \+ name in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script$`
		}
	}
}
