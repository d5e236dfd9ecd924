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

// unlockPrefixScript deletes a lock only while its value still starts with
// the owner's prefix (KEYS[1] the lock key, ARGV[1] the prefix).
var unlockPrefixScript = redis.NewScript(`local v = redis.call("get", KEYS[1]) if v and string.sub(v, 1, #ARGV[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

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
	return unlockPrefixScript.Run(ctx, l.RDB, []string{key}, l.Owner).Err()
}
