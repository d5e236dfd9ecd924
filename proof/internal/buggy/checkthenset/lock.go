// Package checkthenset is the LV107 (checkthenset) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it.
package checkthenset

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

// TryLock takes the lock if nobody holds it.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	err := m.RDB.Get(ctx, m.Key).Err()
	if err == nil {
		return false, nil // held
	}
	if err != redis.Nil {
		return false, err
	}
	if err := m.RDB.Set(ctx, m.Key, m.Token, m.TTL).Err(); err != nil {
		return false, err
	}
	return true, nil
}

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Unlock releases the lock if this Mutex still holds it.
func (m *Mutex) Unlock(ctx context.Context) error {
	return unlockScript.Run(ctx, m.RDB, []string{m.Key}, m.Token).Err()
}
