// Package incrverdict takes INCR locks whose reply is the function's
// answer, with the error of the INCR dropped.
package incrverdict

import (
	"context"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

// IsLocked says true when busy: a failed INCR reads 0, "not locked".
type RedisLocker struct{ pool *redis.Pool }

func (r *RedisLocker) IsLocked(key string) bool {
	conn := r.pool.Get()
	incr, _ := redis.Int64(conn.Do("INCR", key)) // want `the error of INCR is dropped: a failed INCR reads as the count 0, and incr > 1 answers for 0 as for the lock taken`
	conn.Close()
	return incr > 1
}

func (r *RedisLocker) Unlock(key string) {
	conn := r.pool.Get()
	conn.Do("DEL", key)
	conn.Close()
}

// The holder's sense, written as "at most one".
type Mutex struct{ rdb *goredis.Client }

func (m *Mutex) TryLock(ctx context.Context, name string) bool {
	n, _ := m.rdb.Incr(ctx, "mutex:"+name).Result() // want `the error of Incr is dropped: a failed Incr reads as the count 0, and n <= 1 answers`
	return n <= 1
}

func (m *Mutex) Unlock(ctx context.Context, name string) { m.rdb.Del(ctx, "mutex:"+name) }

// --- silent ---

// The holder's sense, n == 1: a failed INCR reads as not taken.
type Gate struct{ rdb *goredis.Client }

func (g *Gate) TryLock(ctx context.Context, name string) bool {
	n, _ := g.rdb.Incr(ctx, "gate:"+name).Result()
	return n == 1
}

func (g *Gate) Unlock(ctx context.Context, name string) { g.rdb.Del(ctx, "gate:"+name) }

// The error read with the count.
type Lock2 struct{ rdb *goredis.Client }

func (l *Lock2) IsLocked(ctx context.Context, name string) bool {
	n, err := l.rdb.Incr(ctx, "l2:"+name).Result()
	return err != nil || n > 1
}

func (l *Lock2) Unlock(ctx context.Context, name string) { l.rdb.Del(ctx, "l2:"+name) }

// A rate limiter dropping its error: no lock.
type Limiter struct{ rdb *goredis.Client }

func (l *Limiter) Allow(ctx context.Context, user string) bool {
	n, _ := l.rdb.Incr(ctx, "rate:"+user).Result()
	return n <= 1
}

func (l *Limiter) Reset(ctx context.Context, user string) { l.rdb.Del(ctx, "rate:"+user) }
