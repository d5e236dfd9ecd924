package v9

import (
	"context"
	"time"
)

// The helpers build the key in a local: the constant is reported in the
// acquire helper, as for the inline key.
func LockSeat(ctx context.Context, id string) (bool, error) {
	key := "seat:" + id
	return rdb.SetNX(ctx, key, "taken", time.Minute).Result() // want `lock key is acquired with the constant "taken"`
}

func UnlockSeat(ctx context.Context, id string) error {
	key := "seat:" + id
	return rdb.Del(ctx, key).Err()
}

// --- silent: an idempotency marker with a constant, never released ---

func markShipped(ctx context.Context, id string) (bool, error) {
	key := "shipped:" + id
	return rdb.SetNX(ctx, key, "1", 24*time.Hour).Result()
}

func ship(ctx context.Context, id string) (bool, error) { return markShipped(ctx, id) }
