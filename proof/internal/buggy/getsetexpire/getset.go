// Package getsetexpire is the LV101 (setnxexpire) proof shape of GETSET,
// then EXPIRE: under proof/internal/buggy as lockvet reports it, under
// proof/internal/fixed as lockvet -fix rewrites it.
package getsetexpire

//lint:file-ignore SA1019 GETSET, deprecated by SET … GET, is the recipe this shape reproduces

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Takeover writes token over the lock key and gives it ttl: the takeover
// of an expired lock in the SETNX-timestamp recipe. It returns the value
// it replaced (redis.Nil when there was none).
func Takeover(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) (string, error) {
	old, err := rdb.GetSet(ctx, key, token).Result()
	if err != nil && err != redis.Nil {
		return "", err
	}
	rdb.Expire(ctx, key, ttl)
	return old, err
}
