// Package acquireresult is the LV105 (acquireresult) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it.
package acquireresult

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// TryAcquire takes the lock on key for ttl; it reports whether it did.
func TryAcquire(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) (bool, error) {
	if ok, err := rdb.SetNX(ctx, key, token, ttl).Result(); err != nil {
		return false, err
	} else if !ok {
		return false, nil
	}
	return true, nil
}
