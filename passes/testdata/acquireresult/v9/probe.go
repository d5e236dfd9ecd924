package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A start-up probe reads only the error: it asks whether the client can
// write, and a key someone else holds would answer that too. Not a lock.
func probeWrite(ctx context.Context, rdb *redis.Client) error {
	if err := rdb.SetNX(ctx, "lock:probe", "1", time.Millisecond).Err(); err != nil {
		return err
	}
	rdb.Del(ctx, "lock:probe")
	return nil
}

// --- a 2 ms TTL is above every client's resolution: still a lock ---

func shortLock(ctx context.Context, rdb *redis.Client) error {
	if err := rdb.SetNX(ctx, "lock:short", "1", 2*time.Millisecond).Err(); err != nil { // want `only the error of SetNX is checked`
		return err
	}
	rdb.Del(ctx, "lock:short")
	return nil
}
