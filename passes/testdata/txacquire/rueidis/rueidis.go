package rueidis

import (
	"context"

	"github.com/redis/rueidis"
)

// SETNX and EXPIRE between MULTI and EXEC: the EXPIRE runs even when
// SETNX lost. No fix: the EXPIRE is an element of the batch, whose
// replies the caller reads by position.
func multiExec(ctx context.Context, client rueidis.Client, key, token string) error {
	for _, r := range client.DoMulti(ctx,
		client.B().Multi().Build(),
		client.B().Setnx().Key(key).Value(token).Build(),
		client.B().Expire().Key(key).Seconds(30).Build(), // want `EXPIRE in the same transaction as SETNX runs even when it lost, on another owner's lock key; use B\(\)\.Set\(\)…\.Nx\(\)\.PxMilliseconds\(ms\)`
		client.B().Exec().Build(),
	) {
		if err := r.Error(); err != nil {
			return err
		}
	}
	return nil
}

// A plain batch is a pipeline: not even atomic.
func pipeline(ctx context.Context, client rueidis.Client, key, token string) {
	client.DoMulti(ctx,
		client.B().Set().Key(key).Value(token).Nx().Build(),
		client.B().Pexpire().Key(key).Milliseconds(30000).Build(), // want `PEXPIRE in the same pipeline as SET runs even when it lost, on another owner's lock key; add \.PxMilliseconds\(ms\) to the SET`
	)
}

// EXPIRE first: when the key is free it expires nothing.
func expireFirst(ctx context.Context, client rueidis.Client, key, token string) {
	expire := client.B().Expire().Key(key).Seconds(30).Build() // want `EXPIRE before SETNX in the same transaction expires nothing when the key is free, so the lock key is held forever; use B\(\)\.Set\(\)…\.Nx\(\)\.PxMilliseconds\(ms\)`
	acquire := client.B().Setnx().Key(key).Value(token).Build()
	client.DoMulti(ctx, client.B().Multi().Build(), expire, acquire, client.B().Exec().Build())
}

// On a dedicated connection, without WATCH.
func dedicated(ctx context.Context, client rueidis.Client, key, token string) error {
	return client.Dedicated(func(c rueidis.DedicatedClient) error {
		c.DoMulti(ctx,
			c.B().Multi().Build(),
			c.B().Getset().Key(key).Value(token).Build(),
			c.B().Expire().Key(key).Seconds(30).Build(), // want `EXPIRE in the same transaction as GETSET runs even when the takeover lost, on another owner's lock key; use one SET with the TTL`
			c.B().Exec().Build(),
		)
		return nil
	})
}

// --- silent ---

// SET NX with its TTL in the transaction: correct (if needless).
func setNXEX(ctx context.Context, client rueidis.Client, key, token string) {
	client.DoMulti(ctx,
		client.B().Multi().Build(),
		client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build(),
		client.B().Exec().Build(),
	)
}

// Two batches: the EXPIRE is sent after the SETNX's reply, not with it
// (LV101's case).
func twoBatches(ctx context.Context, client rueidis.Client, key, token string) {
	client.DoMulti(ctx, client.B().Setnx().Key(key).Value(token).Build())
	client.DoMulti(ctx, client.B().Expire().Key(key).Seconds(30).Build())
}

// WATCH, GET, then MULTI/EXEC: EXEC aborts if the key changed after WATCH.
func watched(ctx context.Context, client rueidis.Client, key, token string) error {
	return client.Dedicated(func(c rueidis.DedicatedClient) error {
		c.Do(ctx, c.B().Watch().Key(key).Build())
		if err := c.Do(ctx, c.B().Get().Key(key).Build()).Error(); !rueidis.IsRedisNil(err) {
			return err
		}
		c.DoMulti(ctx,
			c.B().Multi().Build(),
			c.B().Setnx().Key(key).Value(token).Build(),
			c.B().Expire().Key(key).Seconds(30).Build(),
			c.B().Exec().Build(),
		)
		return nil
	})
}

// Commands in a slice: not followed.
func slice(ctx context.Context, client rueidis.Client, key, token string) {
	cmds := rueidis.Commands{
		client.B().Setnx().Key(key).Value(token).Build(),
		client.B().Expire().Key(key).Seconds(30).Build(),
	}
	client.DoMulti(ctx, cmds...)
}
