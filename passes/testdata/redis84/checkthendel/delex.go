// Package delex is run with lockvet configured for Redis 8.4.
package delex

import (
	"context"

	"github.com/redis/go-redis/v9"
)

func unlock(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.Get(ctx, key).Val() == token {
		rdb.Del(ctx, key) // want `Del of key after a separate`
	}
}
