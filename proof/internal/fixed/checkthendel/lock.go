// Package checkthendel is the LV202 (checkthendel) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it.
package checkthendel

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// unlockScript deletes a lock only while it still holds the token it was
// acquired with (KEYS[1] the lock key, ARGV[1] the token).
var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

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
