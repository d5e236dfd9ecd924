package rueidis

// rueidiscompat, the go-redis-shaped adapter over rueidis: the go-redis
// adapter reads it, with rueidis's nil reply and IsRedisNil.

import (
	"context"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

func compatNanos(ctx context.Context, client rueidis.Client, key, token string) bool {
	c := rueidiscompat.NewAdapter(client)
	return c.SetNX(ctx, key, token, 30).Val() // want `TTL 30 is 30ns`
}

// --- silent ---

func compatSeconds(ctx context.Context, client rueidis.Client, key, token string) bool {
	c := rueidiscompat.NewAdapter(client)
	return c.SetNX(ctx, key, token, 30*time.Second).Val()
}
