package twofiles

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func b(ctx context.Context, rdb *redis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	defer rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
}
