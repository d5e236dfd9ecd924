// Package repository implements service's cache on Redis: every holder
// writes 1 and the release is a bare DEL (LV204, LV201).
package repository

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/modnested/service"
)

type redeemCache struct{ rdb *redis.Client }

// NewRedeemCache returns the cache on rdb.
func NewRedeemCache(rdb *redis.Client) service.RedeemCache { return &redeemCache{rdb: rdb} }

func (c *redeemCache) AcquireRedeemLock(ctx context.Context, code string, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, "redeem:lock:"+code, 1, ttl).Result()
}

func (c *redeemCache) ReleaseRedeemLock(ctx context.Context, code string) error {
	return c.rdb.Del(ctx, "redeem:lock:"+code).Err()
}
