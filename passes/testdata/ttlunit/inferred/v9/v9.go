// A TTL passed to an inferred acquire or renew helper is read at the
// call site, in the unit of the helper's parameter.
package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func Lock(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+key, "1", ttl).Result()
}

func Extend(ctx context.Context, key string, ttl time.Duration) error {
	return rdb.Expire(ctx, "lock:"+key, ttl).Err()
}

func job(ctx context.Context, id string) error {
	ok, err := Lock(ctx, id, 30) // want `TTL 30 is 30ns`
	if err != nil || !ok {
		return err
	}
	return Extend(ctx, id, 30) // want `TTL 30 is 30ns`
}

// --- silent ---

func jobOK(ctx context.Context, id string) error {
	ok, err := Lock(ctx, id, 30*time.Second)
	if err != nil || !ok {
		return err
	}
	return nil
}
