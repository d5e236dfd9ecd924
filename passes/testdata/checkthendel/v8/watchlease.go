package v8

import (
	"context"
	"errors"
	"time"

	"github.com/go-redis/redis/v8"
)

// A leader lease: one function takes it, extends it or gives it up,
// depending on the TTL asked for. Inside Watch, but the commands go
// through Tx.Pipelined, a plain pipeline sent outside MULTI/EXEC, so the
// WATCH guards nothing: the lease can change hands between the GET and
// the DEL. The key's name says nothing of a lock; the write of the
// compared id with a TTL says it is one.
func claimLeader(ctx context.Context, rdb *redis.Client, group, node string, ttl time.Duration) (bool, error) {
	key := "leader:" + group
	held := false
	err := rdb.Watch(ctx, func(tx *redis.Tx) error {
		cur, err := tx.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) {
			// free
		} else if err != nil {
			return err
		} else if cur != node {
			return nil // another node leads
		}
		_, err = tx.Pipelined(ctx, func(p redis.Pipeliner) error {
			if ttl > 0 {
				p.Set(ctx, key, node, ttl)
			} else {
				p.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock; Pipelined inside Watch bypasses MULTI/EXEC and the WATCH; use TxPipelined`
			}
			return nil
		})
		held = err == nil && ttl > 0
		return err
	}, key)
	if errors.Is(err, redis.TxFailedErr) {
		return false, nil
	}
	return held, err
}

// --- silent ---

// The same lease through TxPipelined: the DEL is in MULTI/EXEC, which
// fails if the key changed after the WATCH.
func claimLeaderTx(ctx context.Context, rdb *redis.Client, group, node string, ttl time.Duration) error {
	key := "leader:" + group
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		cur, err := tx.Get(ctx, key).Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if err == nil && cur != node {
			return nil
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			if ttl > 0 {
				p.Set(ctx, key, node, ttl)
			} else {
				p.Del(ctx, key)
			}
			return nil
		})
		return err
	}, key)
}

// A one-time code checked and used up inside Watch through Pipelined: the
// code is never written with what it is compared with here, and nothing
// names a lock.
func redeemCode(ctx context.Context, rdb *redis.Client, user, code string) (bool, error) {
	key := "otp:" + user
	ok := false
	err := rdb.Watch(ctx, func(tx *redis.Tx) error {
		want, err := tx.Get(ctx, key).Result()
		if err != nil {
			return err
		}
		if want != code {
			return nil
		}
		_, err = tx.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key)
			return nil
		})
		ok = err == nil
		return err
	}, key)
	return ok, err
}
