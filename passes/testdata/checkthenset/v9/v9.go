package v9

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// --- reported ---

// The canonical check-then-set: GET finds nothing, a plain SET with a
// TTL claims the key, and Unlock deletes it (the Lock/Unlock pair).
func TryLock(ctx context.Context, rdb *redis.Client, name, token string) (bool, error) {
	if err := rdb.Get(ctx, "lock:"+name).Err(); err != redis.Nil {
		return false, err // held (err == nil) or failed
	}
	if err := rdb.Set(ctx, "lock:"+name, token, 30*time.Second).Err(); err != nil { // want `Set of "lock:" \+ name after a GET found it missing: two processes can both find it missing and both take the lock; claim it with one SET NX with the TTL`
		return false, err
	}
	return true, nil
}

func Unlock(ctx context.Context, rdb *redis.Client, name string) error {
	return rdb.Del(ctx, "lock:"+name).Err()
}

// Found, failed and missing tested one after the other; the key released
// by a deferred DEL in the same function.
func runJob(ctx context.Context, rdb redis.UniversalClient, job string, token string, work func()) error {
	key := fmt.Sprintf("job:%s:running", job)
	_, err := rdb.Get(ctx, key).Result()
	if err == nil {
		return nil // someone runs it
	}
	if !errors.Is(err, redis.Nil) {
		return err
	}
	rdb.Set(ctx, key, token, time.Minute) // want `Set of key after a GET found it missing`
	defer rdb.Del(ctx, key)
	work()
	return nil
}

// The GET's error tested in place; a release helper called with the key.
func runOnce(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration, work func()) {
	if rdb.Get(ctx, key).Err() == redis.Nil {
		rdb.Set(ctx, key, token, ttl) // want `Set of key after a GET found it missing`
		work()
		release(ctx, rdb, key)
	}
}

func release(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
}

// No TTL on the SET: reported, no fix (the TTL is a decision).
func lockForever(ctx context.Context, rdb *redis.Client, key, token string) bool {
	if rdb.Get(ctx, key).Err() != redis.Nil {
		return false
	}
	rdb.Set(ctx, key, token, 0) // want `Set of key after a GET found it missing`
	defer rdb.Del(ctx, key)
	return true
}

// A lease taken or renewed in a Watch callback whose write goes out in
// Tx.Pipelined, a plain pipeline the WATCH does not guard: the value read
// is compared with the lease ID written, the write runs when the key was
// missing (or already ours). No fix.
func Lease(ctx context.Context, rdb *redis.Client, name, id string, ttl time.Duration) (bool, error) {
	acquired := false
	key := "lease:" + name
	err := rdb.Watch(ctx, func(tx *redis.Tx) error {
		current, err := tx.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) {
			// not taken yet
		} else if err != nil {
			return err
		} else if id != current {
			return nil
		}
		_, err = tx.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, key, id, ttl) // want `Set of key after a GET found it missing: .*; Pipelined inside Watch bypasses MULTI/EXEC and the WATCH; use TxPipelined`
			return nil
		})
		if err != nil {
			return err
		}
		acquired = true
		return nil
	}, key)
	if errors.Is(err, redis.TxFailedErr) {
		return false, nil
	}
	return acquired, err
}

// --- silent ---

// The same lease with the write queued in MULTI/EXEC (TxPipelined): EXEC
// fails when the key changed after the WATCH.
func LeaseTx(ctx context.Context, rdb *redis.Client, name, id string, ttl time.Duration) (bool, error) {
	acquired := false
	key := "lease:" + name
	err := rdb.Watch(ctx, func(tx *redis.Tx) error {
		current, err := tx.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) {
		} else if err != nil {
			return err
		} else if id != current {
			return nil
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, key, id, ttl)
			return nil
		})
		if err != nil {
			return err
		}
		acquired = true
		return nil
	}, key)
	return acquired, err
}

// A correct lock: SET NX with the TTL.
func TryLockNX(ctx context.Context, rdb *redis.Client, name, token string) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+name, token, 30*time.Second).Result()
}

func UnlockNX(ctx context.Context, rdb *redis.Client, name string) error {
	return rdb.Del(ctx, "lock:"+name).Err()
}
