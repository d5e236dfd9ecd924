package lock

import (
	"fmt"

	"github.com/gomodule/redigo/redis"
)

// LockJob builds its key in a local variable.
func LockJob(c redis.Conn, id string) (bool, error) { // want LockJob:"acquire-funcs:key=1"
	key := fmt.Sprintf("job:%s", id)
	reply, err := redis.String(c.Do("SET", key, "1", "NX", "EX", 60))
	return reply == "OK", err
}

// ForgetJob deletes the job's key, whoever holds it; not paired here.
func ForgetJob(c redis.Conn, id string) error { // want ForgetJob:"release-funcs:key=1"
	key := fmt.Sprintf("job:%s", id)
	_, err := c.Do("DEL", key)
	return err
}
