//go:build go1.22

// Locks acquired with a constant and released in the same function, in a
// file older than Go 1.24 (no crypto/rand.Text): the fix declares a token
// helper in the package, importing crypto/rand under another name where
// math/rand holds "rand".
package tokenplan

import (
	"context"
	"math/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

func jitter() time.Duration { return time.Duration(rand.Intn(100)) * time.Millisecond }

func settle(ctx context.Context, rdb *redis.Client, id string) error {
	key := "lock:settle:" + id
	ok, err := rdb.SetNX(ctx, key, "1", 30*time.Second).Result() // want `lock key is acquired with the constant "1" and released, so no owner check can tell holders apart; use a random token`
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	time.Sleep(jitter())
	return nil
}

// Acquired in a retry loop, released after it: the token is made before
// the loop, where it is in scope of the release.
func retry(ctx context.Context, rdb *redis.Client) {
	for i := 0; i < 3; i++ {
		if rdb.SetNX(ctx, "lock:retry", true, time.Minute).Val() { // want `lock "lock:retry" is acquired with the constant true`
			break
		}
	}
	rdb.Del(ctx, "lock:retry")
}

// The function also reads the value and compares it with the constant: a
// new token would never match, so there is no fix.
func compared(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:cmp", "1", time.Minute) // want `lock "lock:cmp" is acquired with the constant "1" .* \(no fix: Get also uses the value\)$`
	if rdb.Get(ctx, "lock:cmp").Val() == "1" {
		rdb.Del(ctx, "lock:cmp")
	}
}

// Released in another function: the token goes from one to the other.
func take(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "lock:take:"+id, "1", time.Minute).Val() // want `lock "lock:take:" \+ id is acquired with the constant "1" and released, so no owner check can tell holders apart; use a random token$`
}

func drop(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, "lock:take:"+id)
}
