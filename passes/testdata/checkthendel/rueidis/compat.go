package rueidis

// rueidiscompat, the go-redis-shaped adapter over rueidis: the go-redis
// adapter reads it, with rueidis's nil reply and IsRedisNil.

import (
	"context"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

func compatRelease(ctx context.Context, client rueidis.Client, key, token string) {
	c := rueidiscompat.NewAdapter(client)
	if c.Get(ctx, key).Val() == token {
		c.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
}

// --- silent ---

// A cache entry read and then invalidated: no comparison guards the DEL.
func compatInvalidate(ctx context.Context, client rueidis.Client, key string) string {
	c := rueidiscompat.NewAdapter(client)
	v := c.Get(ctx, key).Val()
	c.Del(ctx, key)
	return v
}
