// A package that uses two client versions gets one script variable per
// client, named after it.
package twoclients

import (
	"context"
	"time"

	redis8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

func keepOld(ctx context.Context, rdb *redis8.Client, key, token string, ttl time.Duration, t *time.Ticker) {
	rdb.SetNX(ctx, key, token, ttl)
	for range t.C {
		rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a loop`
	}
}

func keepNew(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration, t *time.Ticker) {
	rdb.SetNX(ctx, key, token, ttl)
	for range t.C {
		rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a loop`
	}
}
