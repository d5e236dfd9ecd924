package redigo

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gomodule/redigo/redis"
)

var (
	hostname, _ = os.Hostname()
	pid         = os.Getpid()
)

func lockerValue() string {
	return fmt.Sprintf("owner:%s<%d>(%s)", hostname, pid, time.Now().Format(time.RFC3339Nano))
}

func holder(v string) bool {
	return strings.HasPrefix(v, fmt.Sprintf("owner:%s<%d>(", hostname, pid))
}

func tryLock(c redis.Conn, key string) bool {
	_, err := redis.String(c.Do("SET", key, lockerValue(), "NX", "PX", 10000))
	return err == nil
}

// The prefix checked once, then the DEL retried until it deletes
// something: the retries check the prefix in the script.
func unlock(c redis.Conn, key string) bool {
	v, err := redis.String(c.Do("GET", key))
	if err != nil || !holder(v) {
		return false
	}
	for i := 0; i < 5; i++ {
		n, err := redis.Int(c.Do("DEL", key)) // want `DEL of lock key key is retried until it deletes something: after the TTL, a retry deletes the next holder's lock`
		if err == nil && n == 1 {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}
