// A pair whose interface has a generated mock: the mock must be
// regenerated from the changed interface, so the fix is withheld.
package mocked

//go:generate mockgen -source=mocked.go -destination=mock_mocked.go -package=mocked

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type RedeemCache interface {
	AcquireRedeemLock(ctx context.Context, code string, ttl time.Duration) (bool, error)
	ReleaseRedeemLock(ctx context.Context, code string) error
}

type redeemCache struct{ rdb *redis.Client }

func (c *redeemCache) AcquireRedeemLock(ctx context.Context, code string, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, "redeem:lock:"+code, 1, ttl).Result() // want `\(no fix: MockRedeemCache implements RedeemCache in the generated mock_mocked.go: change it and regenerate mocks\)$`
}

func (c *redeemCache) ReleaseRedeemLock(ctx context.Context, code string) error {
	return c.rdb.Del(ctx, "redeem:lock:"+code).Err()
}

func redeem(ctx context.Context, c RedeemCache, code string) error {
	ok, err := c.AcquireRedeemLock(ctx, code, time.Minute)
	if err != nil || !ok {
		return err
	}
	defer c.ReleaseRedeemLock(ctx, code)
	return nil
}
