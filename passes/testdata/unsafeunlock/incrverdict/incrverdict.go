// Package incrverdict takes INCR locks whose reply is the function's
// answer and releases them with a bare DEL.
package incrverdict

import (
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
)

// IsLocked sets no TTL, IsLockedTTL does: one Unlock releases both, and
// the lock IsLockedTTL takes can expire under its holder.
type RedisLocker struct {
	pool   *redis.Pool
	prefix string
}

func (r *RedisLocker) IsLocked(key string) bool {
	conn := r.pool.Get()
	defer conn.Close()
	n, err := redis.Int64(conn.Do("INCR", fmt.Sprintf("%s:%s", r.prefix, key)))
	return err != nil || n > 1
}

func (r *RedisLocker) IsLockedTTL(key string, ttl time.Duration) bool {
	conn := r.pool.Get()
	defer conn.Close()
	lockKey := fmt.Sprintf("%s:%s", r.prefix, key)
	n, err := redis.Int64(conn.Do("INCR", lockKey))
	if err != nil {
		return true
	}
	conn.Do("EXPIRE", lockKey, int(ttl.Seconds()))
	return n > 1
}

func (r *RedisLocker) Unlock(key string) {
	conn := r.pool.Get()
	defer conn.Close()
	conn.Do("DEL", fmt.Sprintf("%s:%s", r.prefix, key)) // want `DEL of lock key fmt.Sprintf\("%s:%s", r.prefix, key\) does not check the owner`
}

// --- silent ---

// No TTL anywhere (LV103's lock): the DEL is reported for the TTL LV103
// asks for.
type Plain struct{ pool *redis.Pool }

func (p *Plain) IsLocked(key string) bool {
	conn := p.pool.Get()
	defer conn.Close()
	n, err := redis.Int64(conn.Do("INCR", "plain:"+key))
	return err != nil || n > 1
}

func (p *Plain) Unlock(key string) {
	conn := p.pool.Get()
	defer conn.Close()
	conn.Do("DEL", "plain:"+key) // want `DEL of lock key "plain:" \+ key does not check the owner: once the lock has its TTL \(LV103\)`
}
