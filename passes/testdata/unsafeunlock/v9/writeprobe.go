package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A start-up probe: can this client write? SET NX of a literal key with a
// 1 ms TTL, deleted at once. Nothing runs under it: not a lock.
func probeWrite(ctx context.Context, rdb *redis.Client) error {
	if err := rdb.SetNX(ctx, "lock:probe", "1", time.Millisecond).Err(); err != nil {
		return err
	}
	return rdb.Del(ctx, "lock:probe").Err()
}

// The same with SetArgs and a TTL below the 1 ms go-redis sends.
func probeArgs(ctx context.Context, rdb *redis.Client) error {
	if err := rdb.SetArgs(ctx, "healthcheck:lock", "x", redis.SetArgs{Mode: "NX", TTL: time.Microsecond}).Err(); err != nil && err != redis.Nil {
		return err
	}
	rdb.Del(ctx, "healthcheck:lock")
	return nil
}

// --- a lock on a literal key with a real TTL is still one ---

func literalLock(ctx context.Context, rdb *redis.Client) error {
	ok, err := rdb.SetNX(ctx, "lock:nightly", "1", time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	rdb.Del(ctx, "lock:nightly") // want `Del of lock key "lock:nightly" does not check the owner`
	return nil
}
