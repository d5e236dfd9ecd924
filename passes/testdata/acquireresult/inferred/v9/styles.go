package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A struct-held client with a key prefix field, the name second.
type KeyLocker struct {
	rdb    *redis.Client
	prefix string
	ttl    time.Duration
}

func (l *KeyLocker) Acquire(ctx context.Context, name string) (bool, error) {
	return l.rdb.SetNX(ctx, l.prefix+name, "locked", l.ttl).Result()
}

func (l *KeyLocker) Release(ctx context.Context, name string) error {
	return l.rdb.Del(ctx, l.prefix+name).Err()
}

func reindex(ctx context.Context, l *KeyLocker) error {
	if _, err := l.Acquire(ctx, "reindex"); err != nil { // want `only the error of Acquire is checked`
		return err
	}
	defer l.Release(ctx, "reindex")
	return nil
}

// --- silent ---

func reindexOK(ctx context.Context, l *KeyLocker) error {
	ok, err := l.Acquire(ctx, "reindex")
	if err != nil || !ok {
		return err
	}
	defer l.Release(ctx, "reindex")
	return nil
}

// The same shape in a cache: SET NX of a default, its bool ignored.
type Cache struct {
	rdb    *redis.Client
	prefix string
}

func (c *Cache) SetDefault(ctx context.Context, key string, v any) (bool, error) {
	return c.rdb.SetNX(ctx, c.prefix+key, v, time.Hour).Result()
}

func warm(ctx context.Context, c *Cache) error {
	_, err := c.SetDefault(ctx, "greeting", "hello")
	return err
}
