// Package rediskv implements kv.Store over a go-redis client.
package rediskv

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/fixapp/kv"
)

// Client wraps a go-redis client.
type Client struct {
	rdb *redis.Client
}

// New returns the Store of the Redis at addr.
func New(addr string) kv.Store {
	return &Client{rdb: redis.NewClient(&redis.Options{Addr: addr})}
}

func (c *Client) SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (c *Client) Get(ctx context.Context, key string) (string, error) {
	return c.rdb.Get(ctx, key).Result()
}

func (c *Client) Del(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, key).Err()
}
