package v8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

// A start-up probe with a 1 ms TTL, deleted at once: not a lock.
func probeWrite(ctx context.Context, rdb *redis.Client) error {
	if err := rdb.SetNX(ctx, "lock:probe", "1", time.Millisecond).Err(); err != nil {
		return err
	}
	return rdb.Del(ctx, "lock:probe").Err()
}
