package v9

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

func reportLock(day string) string { return fmt.Sprintf("report:%s:lock", day) }

// --- reported ---

func buildReport(ctx context.Context, rdb *redis.Client, day, token string) (bool, error) {
	ok, err := rdb.SetNX(ctx, reportLock(day), token, 0).Result()
	if err != nil || !ok {
		return ok, err
	}
	rdb.Expire(ctx, reportLock(day), ttl) // want `Expire after SetNX acquired reportLock\(day\) without a TTL`
	return true, nil
}

// --- silent ---

// The TTL set is another day's.
func buildTwo(ctx context.Context, rdb *redis.Client, day, prev, token string) (bool, error) {
	ok, err := rdb.SetNX(ctx, reportLock(day), token, ttl).Result()
	if err != nil || !ok {
		return ok, err
	}
	rdb.Expire(ctx, reportLock(prev), ttl)
	return true, nil
}
