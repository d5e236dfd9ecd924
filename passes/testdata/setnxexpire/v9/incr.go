package v9

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

func work(context.Context) error { return nil }

// INCR as a lock: the caller whose INCR returns 1 enters; the TTL comes in
// a second round trip.
func incrLock(ctx context.Context, rdb *redis.Client, key string) error {
	if rdb.Incr(ctx, key).Val() == 1 {
		rdb.Expire(ctx, key, ttl) // want `Expire after Incr acquired key without a TTL: a crash in between leaves the lock held forever; use SET key value NX PX ttl \(no fix: Incr takes no TTL, and SET NX replies no count\)`
		defer rdb.Del(ctx, key)
		return work(ctx)
	}
	return errBusy
}

// Read with Result; the caller leaves unless the reply is 1.
func incrResult(ctx context.Context, rdb redis.Cmdable, job string) error {
	key := "lock:" + job
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return err
	}
	if n != 1 {
		return errBusy
	}
	if err := rdb.Expire(ctx, key, ttl).Err(); err != nil { // want `Expire after Incr acquired key without a TTL`
		return err
	}
	defer rdb.Unlink(ctx, key)
	return work(ctx)
}

// A loop over jobs, each locked by INCR.
func incrLoop(ctx context.Context, rdb *redis.Client, jobs []string) {
	for _, job := range jobs {
		n := rdb.Incr(ctx, "lock:"+job).Val()
		if n != 1 {
			continue
		}
		rdb.PExpire(ctx, "lock:"+job, 10*time.Second) // want `PExpire after Incr acquired "lock:" \+ job without a TTL`
		_ = work(ctx)
		rdb.Del(ctx, "lock:"+job)
	}
}

// Every comparison that lets only the first INCR through is a guard: a
// later caller's reply is 2 or more.
func incrGreater(ctx context.Context, rdb *redis.Client, key string) error {
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return err
	}
	if n > 1 {
		return errBusy
	}
	rdb.Expire(ctx, key, ttl) // want `Expire after Incr acquired key without a TTL`
	defer rdb.Del(ctx, key)
	return work(ctx)
}

func incrOneLess(ctx context.Context, rdb *redis.Client, key string) error {
	n := rdb.Incr(ctx, key).Val()
	if 1 < n {
		return errBusy
	}
	rdb.Expire(ctx, key, ttl) // want `Expire after Incr acquired key without a TTL`
	defer rdb.Del(ctx, key)
	return work(ctx)
}

func incrAtLeastTwo(ctx context.Context, rdb *redis.Client, key string) error {
	if rdb.Incr(ctx, key).Val() >= 2 {
		return errBusy
	}
	rdb.Expire(ctx, key, ttl) // want `Expire after Incr acquired key without a TTL`
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// == 1 with the busy branch in the else, the work after the if.
func incrEqualElse(ctx context.Context, rdb *redis.Client, key string) error {
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return err
	}
	if n == 1 {
		rdb.Expire(ctx, key, ttl) // want `Expire after Incr acquired key without a TTL`
	} else {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// != 1 with the work in the else.
func incrNotEqualElse(ctx context.Context, rdb *redis.Client, key string) error {
	if n := rdb.Incr(ctx, key).Val(); n != 1 {
		return errBusy
	} else {
		rdb.Expire(ctx, key, ttl) // want `Expire after Incr acquired key without a TTL`
		defer rdb.Del(ctx, key)
	}
	return work(ctx)
}

// A switch on the reply.
func incrSwitch(ctx context.Context, rdb *redis.Client, key string) error {
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return err
	}
	switch n {
	case 1:
		rdb.Expire(ctx, key, ttl) // want `Expire after Incr acquired key without a TTL`
	default:
		return errBusy
	}
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// A switch of comparisons.
func incrSwitchCases(ctx context.Context, rdb *redis.Client, key string) error {
	n := rdb.Incr(ctx, key).Val()
	switch {
	case n > 1:
		return errBusy
	case n == 1:
		rdb.Expire(ctx, key, ttl) // want `Expire after Incr acquired key without a TTL`
		defer rdb.Del(ctx, key)
		return work(ctx)
	}
	return nil
}

// --- silent: counters ---

// A limit other than 1: the first caller and the second are let through
// alike, so it is a counter, not a lock.
func underLimit(ctx context.Context, rdb *redis.Client, key string) error {
	n := rdb.Incr(ctx, key).Val()
	if n > 5 {
		return errBusy
	}
	rdb.Expire(ctx, key, time.Minute)
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// A switch on the reply with no default: a reply of 2 or more falls
// through to the same code as 1.
func switchNoDefault(ctx context.Context, rdb *redis.Client, key string) error {
	n := rdb.Incr(ctx, key).Val()
	switch n {
	case 1:
		rdb.Expire(ctx, key, time.Minute)
	}
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// An else that does not leave: every caller runs the rest.
func elseStays(ctx context.Context, rdb *redis.Client, key string) error {
	if rdb.Incr(ctx, key).Val() != 1 {
		_ = work(ctx)
	} else {
		rdb.Expire(ctx, key, time.Minute)
	}
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// A rate counter compared with a limit; its first hit starts the window.
func limited(ctx context.Context, rdb *redis.Client, user string) bool {
	key := "rate:" + user
	n := rdb.Incr(ctx, key).Val()
	if n == 1 {
		rdb.Expire(ctx, key, time.Minute)
	}
	return n <= 100
}

// A counter compared with a limit and reset by DEL when it overflows.
func quota(ctx context.Context, rdb *redis.Client, key string) bool {
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return false
	}
	if n == 1 {
		rdb.Expire(ctx, key, time.Hour)
	}
	if n > 1000 {
		rdb.Del(ctx, key)
		return false
	}
	return true
}

// A counter whose value is returned.
func visits(ctx context.Context, rdb *redis.Client, page string) int64 {
	n := rdb.Incr(ctx, "visits:"+page).Val()
	if n == 1 {
		rdb.Expire(ctx, "visits:"+page, 24*time.Hour)
	}
	return n
}

// Compared with 1, but nothing deletes the key: a once-per-window guard
// cleared only by its TTL is not taken for a lock.
func oncePerWindow(ctx context.Context, rdb *redis.Client, key string) error {
	if rdb.Incr(ctx, key).Val() != 1 {
		return nil
	}
	rdb.Expire(ctx, key, time.Minute)
	return work(ctx)
}

// Compared with 1 outside an if.
func firstHit(ctx context.Context, rdb *redis.Client, key string) bool {
	first := rdb.Incr(ctx, key).Val() == 1
	rdb.Expire(ctx, key, time.Minute)
	rdb.Del(ctx, key)
	return first
}
