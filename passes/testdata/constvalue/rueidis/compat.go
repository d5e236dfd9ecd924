package rueidis

// rueidiscompat, the go-redis-shaped adapter over rueidis: the go-redis
// adapter reads it, with rueidis's nil reply and IsRedisNil.

import (
	"context"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

func compatConstant(ctx context.Context, client rueidis.Client, key string) {
	c := rueidiscompat.NewAdapter(client)
	if !c.SetNX(ctx, key, "locked", time.Minute).Val() { // want `lock key is acquired with the constant "locked" and released, so no owner check can tell holders apart; use a random token`
		return
	}
	defer c.Del(ctx, key)
}

// --- silent ---

func compatRandom(ctx context.Context, client rueidis.Client, key string) {
	c := rueidiscompat.NewAdapter(client)
	token := newToken()
	if !c.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer c.Del(ctx, key)
}
