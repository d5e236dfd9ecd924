package redigo

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gomodule/redigo/redis"
)

// The owner is the process: the lock's value starts with the host name and
// the process id, then the time of the acquire; the release checks the
// prefix only.
var (
	hostname, _ = os.Hostname()
	pid         = os.Getpid()
)

func lockerValue() string {
	return fmt.Sprintf("owner:%s<%d>(%s)", hostname, pid, time.Now().Format(time.RFC3339Nano))
}

func mine(v string) bool {
	return strings.HasPrefix(v, fmt.Sprintf("owner:%s<%d>(", hostname, pid))
}

func lock(c redis.Conn, key string) bool {
	_, err := redis.String(c.Do("SET", key, lockerValue(), "NX", "PX", 10000))
	return err == nil
}

// GET, the prefix check in a predicate of the package, DEL: two round
// trips. The DEL becomes a script that checks the prefix itself.
func unlock(c redis.Conn, key string) bool {
	v, err := redis.String(c.Do("GET", key))
	if err != nil {
		return false
	}
	if !mine(v) {
		return false
	}
	n, err := redis.Int(c.Do("DEL", key)) // want `DEL of key after a separate GET and prefix compare can delete another holder's lock; compare and delete in one step`
	return err == nil && n == 1
}

// --- silent ---

// A constant prefix is every holder's: no owner check to make atomic.
func unlockConstPrefix(c redis.Conn, key string) {
	lock(c, key)
	if v, _ := redis.String(c.Do("GET", key)); strings.HasPrefix(v, "owner:") {
		c.Do("DEL", key)
	}
}
