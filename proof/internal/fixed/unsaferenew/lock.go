// Package unsaferenew is the LV203 (unsaferenew) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it.
package unsaferenew

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// renewScript extends a lock's TTL (ARGV[2], in milliseconds) only while
// the key still holds this process's token (ARGV[1]).
var renewScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

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
