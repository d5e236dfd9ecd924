// Package checkthendel is the LV202 (checkthendel) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it.
package checkthendel

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	RDB   *redis.Client
	Key   string
	Token string
	TTL   time.Duration
}

// TryLock takes the lock if it is free.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	return m.RDB.SetNX(ctx, m.Key, m.Token, m.TTL).Result()
}
