package multi

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func keepB(ctx context.Context, rdb *redis.Client, key, token string, t *time.Ticker) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	for range t.C {
		rdb.PExpire(ctx, key, time.Minute) // want `PExpire renews lock key in a loop`
	}
}
