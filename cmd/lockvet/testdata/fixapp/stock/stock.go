// Package stock reserves stock under go-redis locks, in more of the ways
// services get them wrong.
package stock

import (
	"context"
	"log"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Config is read from the service's flags.
type Config struct {
	LockSeconds int
}

// Hold takes the SKU lock with a TTL that is a count of seconds read as
// nanoseconds (LV104).
func Hold(ctx context.Context, rdb *redis.Client, cfg Config, sku, token string) (bool, error) {
	return rdb.SetNX(ctx, "lock:hold:"+sku, token, time.Duration(cfg.LockSeconds)).Result()
}

// Restock takes its lock in one transaction of SETNX and EXPIRE: the
// EXPIRE runs even when SETNX lost, on another holder's lock (LV102).
func Restock(ctx context.Context, rdb *redis.Client, sku, token string) (bool, error) {
	key := "lock:restock:" + sku
	pipe := rdb.TxPipeline()
	set := pipe.SetNX(ctx, key, token, 0)
	pipe.Expire(ctx, key, 30*time.Second)
	if _, err := pipe.Exec(ctx); err != nil {
		return false, err
	}
	return set.Val(), nil
}

// TryCount takes the counting lock and checks only the error, so a lock
// held by another process reads as taken (LV105).
func TryCount(ctx context.Context, rdb *redis.Client, sku, token string) (bool, error) {
	_, err := rdb.SetNX(ctx, "lock:count:"+sku, token, time.Minute).Result()
	if err != nil {
		return false, err
	}
	log.Printf("counting %s", sku)
	return true, nil
}

// Takeover takes a stale lock over with GETSET, then gives it a TTL in
// a second round trip (LV101).
func Takeover(ctx context.Context, rdb *redis.Client, sku string) (bool, error) {
	key := "lock:takeover:" + sku
	now := strconv.FormatInt(time.Now().UnixNano(), 10)
	old, err := rdb.GetSet(ctx, key, now).Result()
	if err != nil && err != redis.Nil {
		return false, err
	}
	rdb.Expire(ctx, key, 10*time.Second)
	return err == redis.Nil || old < now, nil
}
