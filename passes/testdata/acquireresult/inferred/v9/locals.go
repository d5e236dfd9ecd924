package v9

import (
	"context"
	"time"
)

// An acquire helper that builds its key in a local.
func LockSeat(ctx context.Context, id string) (bool, error) {
	key := "seat:" + id
	return rdb.SetNX(ctx, key, "1", time.Minute).Result()
}

func UnlockSeat(ctx context.Context, id string) error {
	key := "seat:" + id
	return rdb.Del(ctx, key).Err()
}

func seat(ctx context.Context, id string) error {
	if _, err := LockSeat(ctx, id); err != nil { // want `only the error of LockSeat is checked`
		return err
	}
	defer UnlockSeat(ctx, id)
	return nil
}

// --- silent ---

func seatOK(ctx context.Context, id string) error {
	ok, err := LockSeat(ctx, id)
	if err != nil || !ok {
		return err
	}
	defer UnlockSeat(ctx, id)
	return nil
}

// An idempotency marker with a local key, its bool dropped: not a lock.
func markQueued(ctx context.Context, id string) (bool, error) {
	key := "queued:" + id
	return rdb.SetNX(ctx, key, 1, time.Hour).Result()
}

func queue(ctx context.Context, id string) error {
	_, err := markQueued(ctx, id)
	return err
}
