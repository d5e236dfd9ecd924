// Package incrverdict takes INCR locks whose reply is the function's
// answer (IsLocked: true when busy; TryLock: true when taken), released
// by a counterpart that deletes the key built the same way.
package incrverdict

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"

	"lockvet.test/redisops/mirror/store"
)

type RedisLocker struct {
	pool   *redis.Pool
	prefix string
}

func (r *RedisLocker) IsLocked(key string) bool {
	conn := r.pool.Get()
	defer conn.Close()
	lockKey := fmt.Sprintf("%s:%s", r.prefix, key)
	n, err := redis.Int64(conn.Do("INCR", lockKey)) // want `lock lockKey is acquired by INCR with no TTL and nothing expires it`
	if err != nil {
		return true
	}
	return n > 1
}

// IsLockedTTL gives its key a TTL (LV101's pair): it expires only the
// keys it takes, so IsLocked's still never expire.
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
	conn.Do("DEL", fmt.Sprintf("%s:%s", r.prefix, key))
}

// go-redis, the holder's sense.
type Mutex struct{ rdb *goredis.Client }

func (m *Mutex) TryLock(ctx context.Context, name string) (bool, error) {
	n, err := m.rdb.Incr(ctx, "mutex:"+name).Result() // want `lock "mutex:" \+ name is acquired by Incr with no TTL`
	if err != nil {
		return false, err
	}
	return n == 1, nil
}

func (m *Mutex) Unlock(ctx context.Context, name string) error {
	return m.rdb.Del(ctx, "mutex:"+name).Err()
}

var errBusy = errors.New("busy")

// The guard tests the error with the count.
func runOnce(ctx context.Context, rdb *goredis.Client, job string, fn func()) error {
	key := "lock:job:" + job
	n, err := rdb.Incr(ctx, key).Result() // want `lock key is acquired by Incr with no TTL`
	if err != nil || n != 1 {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	fn()
	return nil
}

// Through the project's own interface (redisops' mirror adapter).
type StoreLock struct{ b store.Backend }

func (l *StoreLock) IsLocked(key string) bool {
	n, err := l.b.Incr("lock:" + key) // want `lock "lock:" \+ key is acquired by Incr with no TTL`
	return err != nil || n > 1
}

func (l *StoreLock) Unlock(key string) error { return l.b.Del("lock:" + key) }

// --- silent ---

// A rate limiter: its answer compares the count with 1, and Reset
// deletes it, but nothing names a lock.
type Limiter struct{ rdb *goredis.Client }

func (l *Limiter) Allow(ctx context.Context, user string) bool {
	n, err := l.rdb.Incr(ctx, "rate:"+user).Result()
	if err != nil {
		return false
	}
	if n == 1 {
		l.rdb.Expire(ctx, "rate:"+user, time.Minute)
	}
	return n <= 1
}

func (l *Limiter) Reset(ctx context.Context, user string) { l.rdb.Del(ctx, "rate:"+user) }

// Named like a lock, but nothing releases it: a first-time marker.
type Locker struct{ rdb *goredis.Client }

func (l *Locker) IsLocked(ctx context.Context, key string) bool {
	return l.rdb.Incr(ctx, "seen:"+key).Val() > 1
}

// A counter of attempts, deleted when they fail.
func (l *Locker) Attempts(ctx context.Context, key string) (int64, error) {
	n, err := l.rdb.Incr(ctx, "attempts:"+key).Result()
	if err != nil {
		l.rdb.Del(ctx, "attempts:"+key)
		return 0, err
	}
	return n, nil
}

// Released, but under another key.
func (l *Locker) HasLock(ctx context.Context, key string) bool {
	n, _ := l.rdb.Incr(ctx, "hits:"+key).Result()
	return n > 1
}

func (l *Locker) Unlock(ctx context.Context, key string) { l.rdb.Del(ctx, "lock:"+key) }
