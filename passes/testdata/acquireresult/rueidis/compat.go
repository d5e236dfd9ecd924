package rueidis

// rueidiscompat, the go-redis-shaped adapter over rueidis: the go-redis
// adapter reads it, with rueidis's nil reply and IsRedisNil.

import (
	"context"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

func compatTryLock(ctx context.Context, client rueidis.Client, key, token string) (bool, error) {
	c := rueidiscompat.NewAdapter(client)
	if err := c.SetNX(ctx, key, token, time.Minute).Err(); err != nil { // want `only the error of SetNX is checked`
		return false, err
	}
	return true, nil
}

// --- silent ---

func compatBoth(ctx context.Context, client rueidis.Client, key, token string) (bool, error) {
	c := rueidiscompat.NewAdapter(client)
	ok, err := c.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return false, err
	}
	return true, nil
}
