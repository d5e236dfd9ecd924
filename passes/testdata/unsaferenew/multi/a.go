// Two files with renewals: the script variable is declared once, in the
// file of the first one.
package multi

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func keepA(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration, t *time.Ticker) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	for range t.C {
		rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a loop`
	}
}
