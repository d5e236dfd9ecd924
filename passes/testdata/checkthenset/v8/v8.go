package v8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

type Locker struct {
	rdb *redis.Client
	key string
}

// A lock struct: Lock reads the key, sets it when missing, Unlock
// deletes the same field.
func (l *Locker) Lock(ctx context.Context, token string) (bool, error) {
	err := l.rdb.Get(ctx, l.key).Err()
	if err == nil {
		return false, nil
	}
	if err != redis.Nil {
		return false, err
	}
	l.rdb.Set(ctx, l.key, token, 10*time.Second) // want `Set of l\.key after a GET found it missing`
	return true, nil
}

func (l *Locker) Unlock(ctx context.Context) {
	l.rdb.Del(ctx, l.key)
}

// --- silent ---

// A cache fill on a struct's key, deleted by its invalidation: no lock.
type Cache struct {
	rdb *redis.Client
	key string
}

func (c *Cache) Get(ctx context.Context, fill func() string) string {
	v, err := c.rdb.Get(ctx, c.key).Result()
	if err == redis.Nil {
		v = fill()
		c.rdb.Set(ctx, c.key, v, time.Minute)
	}
	return v
}

func (c *Cache) Drop(ctx context.Context) {
	c.rdb.Del(ctx, c.key)
}
