package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// INCR as a lock that nothing expires: the first caller enters, and a
// crash before the DEL leaves the counter at 1 for good.
func incrNoTTL(ctx context.Context, rdb *redis.Client, job string) error {
	key := "lock:incr:" + job
	if rdb.Incr(ctx, key).Val() != 1 { // want `lock key is acquired by Incr with no TTL and nothing expires it: a dead holder keeps it forever; use SET key value NX PX ttl; then its Del must check the owner \(LV201\)`
		return errBusy
	}
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// Read with Result; the critical section is the body of `if n == 1`.
func incrNightly(ctx context.Context, rdb redis.Cmdable) error {
	n, err := rdb.Incr(ctx, "lock:nightly").Result() // want `lock "lock:nightly" is acquired by Incr with no TTL`
	if err != nil {
		return err
	}
	if n == 1 {
		defer rdb.Del(ctx, "lock:nightly")
		return work(ctx)
	}
	return errBusy
}

// --- silent ---

// An INCR lock that is given a TTL (LV101's finding, not this one's).
func incrExpired(ctx context.Context, rdb *redis.Client, key string) error {
	if rdb.Incr(ctx, key).Val() == 1 {
		rdb.Expire(ctx, key, time.Minute)
		defer rdb.Del(ctx, key)
		return work(ctx)
	}
	return errBusy
}

// A counter never expired and compared with a limit, then reset.
func attempts(ctx context.Context, rdb *redis.Client, user string) bool {
	n := rdb.Incr(ctx, "attempts:"+user).Val()
	if n > 5 {
		rdb.Del(ctx, "attempts:"+user)
		return false
	}
	return true
}
