// Package prefixdel is the LV202 (checkthendel) proof shape of an owner
// check by prefix: under proof/internal/buggy as lockvet reports it, under
// proof/internal/fixed as lockvet -fix rewrites it.
package prefixdel

import (
	"context"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Locker takes locks whose value starts with its Owner (a host and
// process id in real code), then the time of the acquire: the owner of a
// lock is whoever writes values that start with Owner.
type Locker struct {
	RDB   *redis.Client
	Owner string
	TTL   time.Duration
}

// TryLock takes the lock on key if it is free.
func (l *Locker) TryLock(ctx context.Context, key string) (bool, error) {
	return l.RDB.SetNX(ctx, key, l.Owner+time.Now().Format(time.RFC3339Nano), l.TTL).Result()
}

// Unlock releases the lock on key if its value starts with Owner.
func (l *Locker) Unlock(ctx context.Context, key string) error {
	v, err := l.RDB.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if !strings.HasPrefix(v, l.Owner) {
		return nil
	}
	return l.RDB.Del(ctx, key).Err()
}
