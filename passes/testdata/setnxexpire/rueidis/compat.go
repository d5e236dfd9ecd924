package rueidis

// rueidiscompat, the go-redis-shaped adapter over rueidis: the go-redis
// adapter reads it, with rueidis's nil reply and IsRedisNil.

import (
	"context"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

// --- silent ---

// SetNX with the TTL: one command.
func compatCorrect(ctx context.Context, client rueidis.Client, key, token string) bool {
	c := rueidiscompat.NewAdapter(client)
	if !c.SetNX(ctx, key, token, 30*time.Second).Val() {
		return false
	}
	c.Expire(ctx, key+":meta", time.Minute)
	return true
}
