// Package roles holds keys claimed with SET NX that are not locks (a
// counter, a retry marker), each beside the lock of the same look that
// is still reported.
package roles

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

func publish() error { return nil }

// --- markers ---

// A dedupe key per workspace and billing period, deleted after a failed
// publish (three places), kept until its TTL after a success: silent.
func bill(ctx context.Context, rdb *redis.Client, ws, period string) error {
	dedupeKey := "billing:dedupe:" + ws + ":" + period
	ok, err := rdb.SetNX(ctx, dedupeKey, "1", 48*time.Hour).Result()
	if err != nil || !ok {
		return err
	}
	if err := publish(); err != nil {
		rdb.Del(ctx, dedupeKey)
		return err
	}
	if err := publish(); err != nil {
		rdb.Del(ctx, dedupeKey)
		return err
	}
	if err := publish(); err != nil {
		_ = rdb.Del(ctx, dedupeKey).Err()
		return errors.Join(err, errors.New("publish"))
	}
	return nil
}

// The same key released after a success as well: a lock, reported.
func billOnce(ctx context.Context, rdb *redis.Client, ws, period string) error {
	lockKey := "billing:lock:" + ws + ":" + period
	ok, err := rdb.SetNX(ctx, lockKey, "1", 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	if err := publish(); err != nil {
		rdb.Del(ctx, lockKey) // want `Del of lock key lockKey`
		return err
	}
	rdb.Del(ctx, lockKey) // want `Del of lock key lockKey`
	return nil
}

// --- counters ---

// A counter record INCR'd by a script and reset by a DEL elsewhere, of
// the same shape as the user lock below: the DEL is the counter's.
var hits = redis.NewScript(`local n = redis.call("INCR", KEYS[1]) redis.call("EXPIRE", KEYS[1], ARGV[1]) return n`)

func hit(ctx context.Context, rdb *redis.Client, user string) (int64, error) {
	return hits.Run(ctx, rdb, []string{"user:" + user}, 60).Int64()
}

func resetHits(ctx context.Context, rdb *redis.Client, user string) error {
	return rdb.Del(ctx, "user:"+user).Err()
}

func lockUser(ctx context.Context, rdb *redis.Client, user string) (bool, error) {
	return rdb.SetNX(ctx, "user:"+user, "1", time.Minute).Result()
}

// The lock's own function releases it: reported, counter or not.
func withUser(ctx context.Context, rdb *redis.Client, user string) {
	if !rdb.SetNX(ctx, "user:"+user, "1", time.Minute).Val() {
		return
	}
	rdb.Del(ctx, "user:"+user) // want `Del of lock key "user:" \+ user`
}

// A window counter seeded with SETNX 0 and moved with INCR in the same
// function: its DEL deletes no holder's lock.
func window(ctx context.Context, rdb *redis.Client, ip string) (bool, error) {
	key := "window:" + ip
	rdb.SetNX(ctx, key, 0, time.Minute)
	n, err := rdb.Incr(ctx, key).Result()
	if err != nil {
		return false, err
	}
	if n > 100 {
		rdb.Del(ctx, key)
		return false, nil
	}
	return true, nil
}
