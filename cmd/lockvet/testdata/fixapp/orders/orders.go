// Package orders settles orders under Redis locks written the ways
// services write them, each with a bug lockvet has a fix for.
package orders

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrNotOwner = errors.New("orders: the lock is not ours")

// Settle holds a per-order lock acquired with a constant value and
// released with a bare DEL (LV204, LV201).
func Settle(ctx context.Context, rdb *redis.Client, id string) error {
	key := "lock:order:" + id
	ok, err := rdb.SetNX(ctx, key, 1, 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	defer rdb.Del(ctx, key)
	log.Printf("settling %s", id)
	return nil
}

// Release reads the lock, returns early when it is not ours, then deletes
// it in a second round trip (LV202).
func Release(ctx context.Context, rdb *redis.Client, id, token string) error {
	key := "lock:refund:" + id
	v, err := rdb.Get(ctx, key).Result()
	if err == redis.Nil {
		return nil
	} else if err != nil {
		return err
	}
	if v != token {
		return ErrNotOwner
	}
	return rdb.Del(ctx, key).Err()
}

// TryLock takes the lock, and takes a Redis failure for success (LV105).
func TryLock(ctx context.Context, rdb *redis.Client, id, token string) bool {
	ok, err := rdb.SetNX(ctx, "lock:refund:"+id, token, time.Minute).Result()
	if err != nil {
		log.Printf("redis: %v", err)
		return true
	}
	return ok
}

// Reserve acquires in two round trips (LV101).
func Reserve(ctx context.Context, rdb *redis.Client, sku, token string) (bool, error) {
	key := "lock:sku:" + sku
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil || !ok {
		return false, err
	}
	rdb.Expire(ctx, key, 10*time.Second)
	return true, nil
}
