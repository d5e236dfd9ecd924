// Package lockpkg is a lock library: the key and TTL come from callers in
// other packages.
package lockpkg

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)
var extend = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

type Lock struct {
	rdb   *redis.Client
	key   string
	token string
}

func Obtain(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) *Lock {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return nil
	}
	return &Lock{rdb: rdb, key: key, token: token}
}

func (l *Lock) Refresh(ctx context.Context, ttl time.Duration) error {
	return extend.Run(ctx, l.rdb, []string{l.key}, l.token, ttl.Milliseconds()).Err()
}

func Release(ctx context.Context, rdb *redis.Client, key, token string) error {
	return unlock.Run(ctx, rdb, []string{key}, token).Err()
}

func ForceRelease(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Del(ctx, key).Err()
}
