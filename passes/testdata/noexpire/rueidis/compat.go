package rueidis

// rueidiscompat, the go-redis-shaped adapter over rueidis: the go-redis
// adapter reads it, with rueidis's nil reply and IsRedisNil.

import (
	"context"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

func compatNoTTL(ctx context.Context, client rueidis.Client, key, token string) error {
	c := rueidiscompat.NewAdapter(client)
	if !c.SetNX(ctx, key, token, 0).Val() { // want `lock key is acquired by SetNX with no TTL and nothing expires it: .*; pass the TTL to SetNX`
		return errBusy
	}
	defer c.Del(ctx, key)
	return nil
}

// --- silent ---

func compatTTL(ctx context.Context, client rueidis.Client, key, token string) error {
	c := rueidiscompat.NewAdapter(client)
	if !c.SetNX(ctx, key, token, time.Minute).Val() {
		return errBusy
	}
	defer c.Del(ctx, key)
	return nil
}
