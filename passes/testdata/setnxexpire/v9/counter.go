package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A rate window seeded with SETNX 0, given its TTL in a second command,
// and counted with INCR: a crash between the two keeps the key forever,
// and the finding speaks of a key, not of a lock.
func seedWindow(ctx context.Context, rdb *redis.Client, ip string) (int64, error) {
	key := "window:" + ip
	rdb.SetNX(ctx, key, 0, 0)
	rdb.Expire(ctx, key, time.Minute) // want `Expire after SetNX wrote key without a TTL: a crash in between leaves the key with no TTL; pass the TTL to SetNX`
	return rdb.Incr(ctx, key).Result()
}
