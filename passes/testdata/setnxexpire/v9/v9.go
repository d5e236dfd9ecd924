package v9

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

// The incident's shape: SETNX, then EXPIRE only if acquired.
func acquireIfOK(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil {
		return false, err
	}
	if ok {
		rdb.Expire(ctx, key, ttl) // want `Expire after SetNX acquired key without a TTL`
	}
	return ok, nil
}

// Key built with fmt.Sprintf, interface-typed client, error of Expire checked.
func sprintfKey(ctx context.Context, rdb redis.Cmdable, jobID int, token string) error {
	ok, err := rdb.SetNX(ctx, fmt.Sprintf("lock:job:%d", jobID), token, 0).Result()
	if err != nil || !ok {
		return err
	}
	if err := rdb.Expire(ctx, fmt.Sprintf("lock:job:%d", jobID), time.Minute).Err(); err != nil { // want `Expire after SetNX`
		return err
	}
	return nil
}

type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
	ttl   time.Duration
}

// Struct field key, SetArgs with NX and no TTL, PExpire.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	err := m.rdb.SetArgs(ctx, m.key, m.token, redis.SetArgs{Mode: "NX"}).Err()
	if err == redis.Nil {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	m.rdb.PExpire(ctx, m.key, m.ttl) // want `PExpire after SetArgs`
	return true, nil
}

// Cluster client; KeepTTL on an absent key sets no TTL either.
func keepTTL(ctx context.Context, rdb *redis.ClusterClient) {
	if rdb.SetNX(ctx, "lock:report", "x", redis.KeepTTL).Val() {
		rdb.Expire(ctx, "lock:report", ttl) // want `Expire after SetNX`
	}
}

// Expire's result is used: reported, but no fix.
func resultUsed(ctx context.Context, rdb *redis.Client, key string) (bool, error) {
	if !rdb.SetNX(ctx, key, "t", 0).Val() {
		return false, nil
	}
	return rdb.Expire(ctx, key, ttl).Result() // want `Expire after SetNX`
}

// GETSET takeover (old SETNX recipe): the GETSET and the TTL become one
// script.
func getSet(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.GetSet(ctx, key, token)
	rdb.Expire(ctx, key, ttl) // want `Expire after GetSet, which clears the TTL of`
}

// The takeover of an expired timestamp lock, its old value read.
func takeoverTimestamp(ctx context.Context, rdb *redis.Client, key string, deadline int64) error {
	now := time.Now().UnixNano()
	expiration := time.Duration(deadline + 1 - now)
	newTimeout, err := rdb.GetSet(ctx, key, deadline).Result()
	if err != nil {
		return err
	}
	cur, err := strconv.ParseInt(newTimeout, 10, 64)
	if err != nil {
		return err
	}
	if now > cur {
		rdb.Expire(ctx, key, expiration) // want `Expire after GetSet, which clears the TTL of key`
		return nil
	}
	return errBusy
}

// The TTL an untyped constant (30 ns): reported, no fix.
func getSetUntyped(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.GetSet(ctx, key, token)
	rdb.Expire(ctx, key, 30) // want `Expire after GetSet`
}

// In a select loop.
func selectLoop(ctx context.Context, rdb *redis.Client, key string, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			if rdb.SetNX(ctx, key, "t", 0).Val() {
				rdb.Expire(ctx, key, 10*time.Second) // want `Expire after SetNX`
			}
		}
	}
}

// --- silent ---

// SET NX with a TTL: correct.
func correct(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	return rdb.SetNX(ctx, key, token, ttl).Result()
}

// SetArgs with NX and TTL: correct.
func correctArgs(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err()
}

// A set-once marker, never expired.
func marker(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "migrated:"+id, 1, 0).Val()
}

// INCR then EXPIRE on a rate counter: not a lock.
func rate(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.Incr(ctx, key).Val() == 1 {
		rdb.Expire(ctx, key, time.Minute)
	}
}

// Expire of a different key.
func otherKey(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.SetNX(ctx, key, "t", 0).Val() {
		rdb.Expire(ctx, key+":meta", time.Minute)
	}
}

// The key variable changes between acquire and expire.
func reassigned(ctx context.Context, rdb *redis.Client, key string) {
	rdb.SetNX(ctx, key, "t", 0)
	key = "other"
	rdb.Expire(ctx, key, time.Minute)
}

// Expire before the acquire, on no path after it.
func before(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Expire(ctx, key, time.Minute)
	rdb.SetNX(ctx, key, "t", 0)
}

// Acquire and expire on exclusive branches.
func branches(ctx context.Context, rdb *redis.Client, key string, renew bool) {
	if renew {
		rdb.Expire(ctx, key, time.Minute)
	} else {
		rdb.SetNX(ctx, key, "t", 0)
	}
}

// The TTL is chosen after the acquire: it cannot move into it.
func ttlAfter(ctx context.Context, rdb *redis.Client, key, token string, d time.Duration) error {
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil || !ok {
		return err
	}
	expire := ttl
	if d > 0 {
		expire = d
	}
	rdb.Expire(ctx, key, expire) // want `Expire after SetNX acquired key without a TTL: .* \(no fix: the TTL is computed after the SetNX\)`
	defer rdb.Del(ctx, key)
	return nil
}
