package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// GET, compare, DEL: two round trips. No fix: the value is read into a
// variable (rueidis replies come with their error), not in the if.
func release(ctx context.Context, client rueidis.Client, key, token string) error {
	v, err := client.Do(ctx, client.B().Get().Key(key).Build()).ToString()
	if err != nil {
		return err
	}
	if v == token {
		return client.Do(ctx, client.B().Del().Key(key).Build()).Error() // want `DEL of key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
	return nil
}

// The early-return form, a cached GET, UNLINK; the lock is acquired in
// the same function.
func cached(ctx context.Context, client rueidis.Client, key, token string) {
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(10).Build()).Error() != nil {
		return
	}
	v, _ := client.DoCache(ctx, client.B().Get().Key(key).Cache(), time.Second).ToString()
	if v != token {
		return
	}
	client.Do(ctx, client.B().Unlink().Key(key).Build()) // want `UNLINK of key after a separate GET compare can delete another holder's lock; compare and delete in one step`
}

// A constant compared value on a lock key: also reported.
func constant(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Set().Key(key).Value("1").Nx().ExSeconds(10).Build())
	if v, _ := client.Do(ctx, client.B().Get().Key(key).Build()).ToString(); v == "1" {
		client.Do(ctx, client.B().Del().Key(key).Build()) // want `DEL of key after a separate GET compare can delete another holder's lock; compare and delete in one step; "1" is shared by every holder \(LV204\)`
	}
}

// --- silent ---

// WATCH, GET, compare, DEL in MULTI/EXEC: correct.
func watched(ctx context.Context, client rueidis.Client, key, token string) error {
	return client.Dedicated(func(c rueidis.DedicatedClient) error {
		c.Do(ctx, c.B().Watch().Key(key).Build())
		v, err := c.Do(ctx, c.B().Get().Key(key).Build()).ToString()
		if err != nil || v != token {
			return err
		}
		c.DoMulti(ctx, c.B().Multi().Build(), c.B().Del().Key(key).Build(), c.B().Exec().Build())
		return nil
	})
}

// DELEX IFEQ: one step.
func delex(ctx context.Context, client rueidis.Client, key, token string) {
	client.Do(ctx, client.B().Delex().Key(key).Ifeq(token).Build())
}

// The compared value is not the GET's.
func otherValue(ctx context.Context, client rueidis.Client, key, token, want string) {
	client.Do(ctx, client.B().Get().Key(key).Build())
	if token == want {
		client.Do(ctx, client.B().Del().Key(key).Build())
	}
}

// A one-time SMS code: not a lock.
func verifyCode(ctx context.Context, client rueidis.Client, phone, input string) bool {
	key := "sms:" + phone
	v, err := client.Do(ctx, client.B().Get().Key(key).Build()).ToString()
	if err != nil || v != input {
		return false
	}
	client.Do(ctx, client.B().Del().Key(key).Build())
	return true
}
