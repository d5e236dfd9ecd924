// Package cache keeps rendered order summaries in Redis.
package cache

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// TTL is how long a summary stays cached.
const TTL = 10 * time.Minute

// Cache is a read-through cache of order summaries.
type Cache struct {
	rdb redis.Cmdable
}

// New returns a Cache on rdb.
func New(rdb redis.Cmdable) *Cache { return &Cache{rdb: rdb} }

func key(orderID string) string { return "cache:order:" + orderID }

// Get returns the cached summary, or ok=false on a miss.
func (c *Cache) Get(ctx context.Context, orderID string) (summary string, ok bool, err error) {
	s, err := c.rdb.Get(ctx, key(orderID)).Result()
	if errors.Is(err, redis.Nil) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return s, true, nil
}

// Put stores a summary with the cache TTL.
func (c *Cache) Put(ctx context.Context, orderID, summary string) error {
	return c.rdb.Set(ctx, key(orderID), summary, TTL).Err()
}

// Invalidate drops a summary after the order changed. A plain DEL is right
// here: a cache entry has no owner.
func (c *Cache) Invalidate(ctx context.Context, orderID string) error {
	return c.rdb.Del(ctx, key(orderID)).Err()
}
