// Package incrverdict takes an INCR lock whose reply is the function's
// answer, and gives its key a TTL in a second command.
package incrverdict

import (
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
)

type RedisLocker struct {
	pool   *redis.Pool
	prefix string
	ttl    time.Duration
}

func (r *RedisLocker) IsLockedTTL(key string, ttl time.Duration) bool {
	conn := r.pool.Get()
	defer conn.Close()
	lockKey := fmt.Sprintf("%s:%s", r.prefix, key)
	incr, err := redis.Int64(conn.Do("INCR", lockKey))
	if err != nil {
		return false
	}
	if ttl > 0 {
		conn.Do("EXPIRE", lockKey, int(ttl.Seconds())) // want `EXPIRE after INCR acquired lockKey without a TTL`
	}
	return incr > 1
}

func (r *RedisLocker) Unlock(key string) {
	conn := r.pool.Get()
	defer conn.Close()
	conn.Do("DEL", fmt.Sprintf("%s:%s", r.prefix, key))
}

// --- silent ---

// A rate limiter's window: INCR, then EXPIRE on the first hit, and a
// verdict; nothing names a lock.
type Window struct{ pool *redis.Pool }

func (w *Window) Allow(user string) bool {
	conn := w.pool.Get()
	defer conn.Close()
	n, err := redis.Int64(conn.Do("INCR", "rate:"+user))
	if err != nil {
		return false
	}
	if n == 1 {
		conn.Do("EXPIRE", "rate:"+user, 60)
	}
	return n <= 1
}

func (w *Window) Release(user string) {
	conn := w.pool.Get()
	defer conn.Close()
	conn.Do("DEL", "rate:"+user)
}
