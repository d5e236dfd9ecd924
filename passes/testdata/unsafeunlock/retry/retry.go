package retry

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 10 * time.Second

// --- reported ---

// One owner check, then the DEL retried until it deletes something: a
// retry after the TTL deletes the next holder's lock.
func unlockRetry(ctx context.Context, rdb *redis.Client, key, token string) bool {
	if ok, err := rdb.SetNX(ctx, key, token, ttl).Result(); err != nil || !ok {
		return false
	}
	lv, err := rdb.Get(ctx, key).Result()
	if err != nil || lv != token {
		return false
	}
	n, err := rdb.Del(ctx, key).Result()
	if n != 1 || err != nil {
		ticker := time.NewTicker(100 * time.Millisecond)
		defer ticker.Stop()
	LOOP:
		for {
			select {
			case <-ctx.Done():
				break LOOP
			case <-ticker.C:
				n, err = rdb.Del(ctx, key).Result() // want `Del of lock key key is retried until it deletes something: after the TTL, a retry deletes the next holder's lock`
				if n > 0 && err == nil {
					break LOOP
				}
			}
		}
	}
	return n == 1
}

// The count read in the loop's condition.
func unlockSpin(ctx context.Context, rdb *redis.Client, key, token string) {
	if ok, err := rdb.SetNX(ctx, key, token, ttl).Result(); err != nil || !ok {
		return
	}
	for rdb.Del(ctx, key).Val() == 0 { // want `Del of lock key key is retried until it deletes something`
		time.Sleep(10 * time.Millisecond)
	}
}

// Retried on an error only: an unchecked DEL, with the general wording.
func unlockErrRetry(ctx context.Context, rdb *redis.Client, key, token string) {
	if ok, err := rdb.SetNX(ctx, key, token, ttl).Result(); err != nil || !ok {
		return
	}
	for i := 0; i < 3; i++ {
		if err := rdb.Del(ctx, key).Err(); err == nil { // want `Del of lock key key does not check the owner, so after the TTL`
			return
		}
	}
}

// --- silent ---

// A loop of DELs over cache keys: no lock.
func dropCaches(ctx context.Context, rdb *redis.Client, keys []string) {
	for _, k := range keys {
		for rdb.Del(ctx, "cache:"+k).Val() == 0 {
			break
		}
	}
}

// A loop that takes the lock and releases it each time round: the DEL
// releases the lock this round took.
func everyRound(ctx context.Context, rdb *redis.Client, key, token string) {
	for {
		ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
		if err != nil {
			return
		}
		if !ok {
			continue
		}
		if v := rdb.Get(ctx, key).Val(); v == token {
			if rdb.Del(ctx, key).Val() > 0 {
				return
			}
		}
	}
}
