// A renew helper with a bare EXPIRE: reported inside it, once.
package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func Lock(ctx context.Context, key, token string) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+key, token, 10*time.Second).Result()
}

func Refresh(ctx context.Context, key string) error {
	return rdb.Expire(ctx, "lock:"+key, 10*time.Second).Err() // want `Expire renews lock "lock:" \+ key in Refresh without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script`
}

func job(ctx context.Context, id, token string, done chan struct{}) error {
	ok, err := Lock(ctx, id, token)
	if err != nil || !ok {
		return err
	}
	for {
		select {
		case <-done:
			return nil
		case <-time.After(time.Second):
			Refresh(ctx, id) // the finding is in Refresh
		}
	}
}

// --- silent: a rate limiter's INCR + EXPIRE ---

func Hit(ctx context.Context, key string) int64 {
	n := rdb.Incr(ctx, "rate:"+key).Val()
	if n == 1 {
		rdb.Expire(ctx, "rate:"+key, time.Minute)
	}
	return n
}
