// Package kv is the service's own Redis interface, in plain values, with
// no Eval; package rediskv implements it over go-redis.
package kv

import (
	"context"
	"time"
)

// Store is what the services need of Redis.
type Store interface {
	SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error)
	Get(ctx context.Context, key string) (string, error)
	Del(ctx context.Context, key string) error
}
