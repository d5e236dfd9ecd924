package v8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

func rebuild(ctx context.Context) error { return ctx.Err() }

// A 15 s lock; the work is given a minute.
func report(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, 15*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	ctx, cancel := context.WithTimeout(ctx, time.Minute) // want `the work under lock key gets 1m0s \(context\.WithTimeout\), not less than its TTL 15s: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return rebuild(ctx)
}

// --- silent ---

// Renewed with EXPIRE while the work runs.
func renewed(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 15*time.Second).Val() {
		return nil
	}
	defer rdb.Del(ctx, key)
	go func() {
		for range time.Tick(5 * time.Second) {
			rdb.Expire(ctx, key, 15*time.Second)
		}
	}()
	time.Sleep(time.Minute)
	return nil
}

// The work ends well before the lock.
func shorter(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return nil
	}
	defer rdb.Del(ctx, key)
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	return rebuild(ctx)
}
