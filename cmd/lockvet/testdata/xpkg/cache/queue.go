package cache

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// TryLock queues a SETNX with no TTL on the caller's pipeline; KeepLock
// queues its EXPIRE.
func TryLock(ctx context.Context, pipe redis.Pipeliner, name string) *redis.BoolCmd {
	return pipe.SetNX(ctx, "lock:"+name, "1", 0)
}

func KeepLock(ctx context.Context, pipe redis.Pipeliner, name string) {
	pipe.Expire(ctx, "lock:"+name, time.Minute)
}

// Hit and Window queue a rate limiter's INCR and EXPIRE.
func Hit(ctx context.Context, pipe redis.Pipeliner, user string) *redis.IntCmd {
	return pipe.Incr(ctx, "rate:"+user)
}

func Window(ctx context.Context, pipe redis.Pipeliner, user string) {
	pipe.Expire(ctx, "rate:"+user, time.Minute)
}

// Locker builds its keys from its prefix and a name.
type Locker struct {
	Prefix string
}

func (l *Locker) Take(ctx context.Context, name string) (bool, error) {
	return rdb.SetNX(ctx, l.Prefix+name, "1", time.Minute).Result()
}

func (l *Locker) Drop(ctx context.Context, name string) error {
	return rdb.Del(ctx, l.Prefix+name).Err()
}
