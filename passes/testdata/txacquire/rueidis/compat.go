package rueidis

// rueidiscompat, the go-redis-shaped adapter over rueidis: the go-redis
// adapter reads it, with rueidis's nil reply and IsRedisNil.

import (
	"context"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

func compatTx(ctx context.Context, client rueidis.Client, key, token string) error {
	c := rueidiscompat.NewAdapter(client)
	_, err := c.TxPipelined(ctx, func(pipe rueidiscompat.Pipeliner) error {
		pipe.SetNX(ctx, key, token, 0)
		pipe.Expire(ctx, key, 30*time.Second) // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
		return nil
	})
	return err
}

// --- silent ---

// SetNX with its TTL in a pipeline, and another key's EXPIRE.
func compatPipelined(ctx context.Context, client rueidis.Client, key, token string) error {
	c := rueidiscompat.NewAdapter(client)
	_, err := c.Pipelined(ctx, func(pipe rueidiscompat.Pipeliner) error {
		pipe.SetNX(ctx, key, token, 30*time.Second)
		pipe.Expire(ctx, key+":stats", time.Hour)
		return nil
	})
	return err
}
