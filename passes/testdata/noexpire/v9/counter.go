package v9

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// A quota counter created with SETNX 0 (no TTL: it lasts until reset),
// counted with INCRBY and reset with DEL once over the limit: no lock
// held forever. Silent.
func useQuota(ctx context.Context, rdb *redis.Client, tenant string, n, limit int64) (bool, error) {
	key := "quota:" + tenant
	if err := rdb.SetNX(ctx, key, 0, 0).Err(); err != nil {
		return false, err
	}
	used, err := rdb.IncrBy(ctx, key, n).Result()
	if err != nil {
		return false, err
	}
	if used > limit {
		rdb.Del(ctx, key)
		return false, nil
	}
	return true, nil
}
