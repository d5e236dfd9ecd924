// Package txacquire is the LV102 (txacquire) proof shape: under
// proof/internal/buggy as lockvet reports it, under proof/internal/fixed as
// lockvet -fix rewrites it.
package txacquire

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Acquire takes the lock on key for ttl, in a transaction.
func Acquire(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) (bool, error) {
	var set *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		set = pipe.SetNX(ctx, key, token, ttl)
		return nil
	})
	if err != nil {
		return false, err
	}
	return set.Val(), nil
}
