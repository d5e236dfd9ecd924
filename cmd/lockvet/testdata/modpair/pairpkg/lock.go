// Package pairpkg is an exported Lock/Unlock helper pair: every holder
// writes 1 and the release is a bare DEL (LV204, LV201). Its callers are
// all in other packages, one of them in a test file.
package pairpkg

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store holds the client.
type Store struct {
	RDB *redis.Client
}

// Lock takes name for ttl.
func (s *Store) Lock(ctx context.Context, name string, ttl time.Duration) (bool, error) {
	return s.RDB.SetNX(ctx, "lock:"+name, 1, ttl).Result()
}

// Unlock gives name up.
func (s *Store) Unlock(ctx context.Context, name string) error {
	return s.RDB.Del(ctx, "lock:"+name).Err()
}
