package lock

import (
	"context"
	"time"
)

// LockJob builds its key in a local variable, as services mostly do.
func LockJob(ctx context.Context, id string) (bool, error) { // want LockJob:"acquire-funcs:key=1"
	key := "job:" + id
	return rdb.SetNX(ctx, key, "1", time.Minute).Result()
}

// ForgetJob deletes the job's key, whoever holds it; not paired here.
func ForgetJob(ctx context.Context, id string) error { // want ForgetJob:"release-funcs:key=1"
	key := "job:" + id
	return rdb.Del(ctx, key).Err()
}

// Evict's local is written twice: no template, no fact.
func Evict(ctx context.Context, id string, old bool) error {
	key := "cache:" + id
	if old {
		key = "cache:v1:" + id
	}
	return rdb.Del(ctx, key).Err()
}
