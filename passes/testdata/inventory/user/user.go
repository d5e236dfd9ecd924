// Package user takes locks through lockpkg and through its own SETNX.
package user

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"lockvet.test/inventory/lockpkg"
)

func lockName(n string) string { return "lock:user:" + n }

func Run(ctx context.Context, rdb *redis.Client, name, token string) {
	if l := lockpkg.Obtain(ctx, rdb, lockName(name), token, 45*time.Second); l != nil {
		defer lockpkg.Release(ctx, rdb, lockName(name), token)
	}
}

func Own(ctx context.Context, rdb *redis.Client, name, token string) {
	key := lockName(name)
	rdb.SetNX(ctx, key, token, time.Minute)
}

func Admin(ctx context.Context, rdb *redis.Client, name string) {
	lockpkg.ForceRelease(ctx, rdb, lockName(name))
}
