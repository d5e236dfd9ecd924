package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// A pump lease held by one controller at a time, taken, extended or
// handed back by the same function on a dedicated connection.

// --- reported ---

// WATCH, GET and compare, then DoMulti without MULTI: a pipeline, which
// the WATCH does not guard.
func pumpLease(ctx context.Context, client rueidis.Client, pump, ctrl string, ttl time.Duration) error {
	key := "pump-lease:" + pump
	return client.Dedicated(func(c rueidis.DedicatedClient) error {
		c.Do(ctx, c.B().Watch().Key(key).Build())
		holder, err := c.Do(ctx, c.B().Get().Key(key).Build()).ToString()
		if rueidis.IsRedisNil(err) {
			// free
		} else if err != nil {
			return err
		} else if holder != ctrl {
			return nil
		}
		if ttl > 0 {
			c.DoMulti(ctx, c.B().Set().Key(key).Value(ctrl).Px(ttl).Build())
		} else {
			c.DoMulti(ctx, c.B().Del().Key(key).Build()) // want `DEL of key after a separate GET compare can delete another holder's lock; WATCH does not guard DoMulti without MULTI; put B\(\)\.Multi\(\) first, B\(\)\.Exec\(\) last`
		}
		return nil
	})
}

// --- silent ---

// The same lease in MULTI/EXEC.
func pumpLeaseTx(ctx context.Context, client rueidis.Client, pump, ctrl string, ttl time.Duration) error {
	key := "pump-lease:" + pump
	return client.Dedicated(func(c rueidis.DedicatedClient) error {
		c.Do(ctx, c.B().Watch().Key(key).Build())
		holder, err := c.Do(ctx, c.B().Get().Key(key).Build()).ToString()
		if err != nil && !rueidis.IsRedisNil(err) {
			return err
		}
		if err == nil && holder != ctrl {
			return nil
		}
		if ttl > 0 {
			c.DoMulti(ctx, c.B().Multi().Build(), c.B().Set().Key(key).Value(ctrl).Px(ttl).Build(), c.B().Exec().Build())
		} else {
			c.DoMulti(ctx, c.B().Multi().Build(), c.B().Del().Key(key).Build(), c.B().Exec().Build())
		}
		return nil
	})
}
