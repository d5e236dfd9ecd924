package v9

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

const reportKey = "lock:report"

var ErrLocked = errors.New("locked")

// The common shape: SETNX and EXPIRE in one MULTI/EXEC, outcome read from
// the *BoolCmd after Exec.
func closureTx(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	var set *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		set = pipe.SetNX(ctx, key, token, 0)
		pipe.Expire(ctx, key, ttl) // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
		return nil
	})
	if err != nil {
		return false, err
	}
	return set.Val(), nil
}

// Non-transactional Pipelined, key built with fmt.Sprintf.
func pipelined(ctx context.Context, rdb *redis.Client, jobID int, token string) (bool, error) {
	var set *redis.BoolCmd
	if _, err := rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		set = pipe.SetNX(ctx, fmt.Sprintf("lock:job:%d", jobID), token, 0)
		pipe.Expire(ctx, fmt.Sprintf("lock:job:%d", jobID), time.Minute) // want `Expire in the same pipeline as SetNX runs even when it lost, on another owner's lock fmt\.Sprintf\("lock:job:%d", jobID\); pass the TTL to SetNX`
		return nil
	}); err != nil {
		return false, err
	}
	return set.Val(), nil
}

// TxPipeline value, Exec's command list dropped.
func txValue(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	pipe := rdb.TxPipeline()
	set := pipe.SetNX(ctx, key, token, 0)
	pipe.Expire(ctx, key, 10*time.Second) // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
	if _, err := pipe.Exec(ctx); err != nil {
		return false, err
	}
	return set.Val(), nil
}

// Pipeline value on a cluster client, constant key.
func pipelineValue(ctx context.Context, rdb *redis.ClusterClient) bool {
	pipe := rdb.Pipeline()
	set := pipe.SetNX(ctx, reportKey, "x", 0)
	pipe.Expire(ctx, reportKey, ttl) // want `Expire in the same pipeline as SetNX runs even when it lost, on another owner's lock reportKey; pass the TTL to SetNX`
	pipe.Exec(ctx)
	return set.Val()
}

type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
	ttl   time.Duration
}

// Struct field key, SetArgs with NX and no TTL, PExpire, UniversalClient.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	var set *redis.StatusCmd
	_, err := m.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		set = pipe.SetArgs(ctx, m.key, m.token, redis.SetArgs{Mode: "NX"})
		pipe.PExpire(ctx, m.key, m.ttl) // want `PExpire in the same transaction as SetArgs runs even when it lost, on another owner's lock m\.key; pass the TTL to SetArgs`
		return nil
	})
	if errors.Is(set.Err(), redis.Nil) {
		return false, nil
	}
	return err == nil, err
}

// EXPIRE queued before SETNX: on a free key it expires nothing and the
// lock is then taken with no TTL.
func expireFirst(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	var set *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Expire(ctx, key, ttl) // want `Expire before SetNX in the same transaction expires nothing when the key is free, so the lock key is held forever; pass the TTL to SetNX`
		set = pipe.SetNX(ctx, key, token, 0)
		return nil
	})
	return set.Val(), err
}

// Interface-typed client; the pipeline holds other commands too.
func withOthers(ctx context.Context, rdb redis.Cmdable, key, token, owner string) (bool, error) {
	var set *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		set = pipe.SetNX(ctx, key, token, 0)
		pipe.Expire(ctx, key, ttl) // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
		pipe.HSet(ctx, "lock:owners", key, owner)
		pipe.Incr(ctx, "lock:attempts")
		return nil
	})
	return set.Val(), err
}

// Inside a Watch callback, with no read of the key: EXEC still runs both.
func inWatch(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.SetNX(ctx, key, token, 0)
			pipe.Expire(ctx, key, ttl) // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
			return nil
		})
		return err
	}, key)
}

// --- reported, no fix ---

// The command list is read by position: deleting EXPIRE would shift it.
func cmdsRead(ctx context.Context, rdb *redis.Client, key string) (bool, error) {
	cmds, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, "t", 0)
		pipe.Expire(ctx, key, ttl) // want `Expire in the same transaction`
		return nil
	})
	if err != nil {
		return false, err
	}
	return cmds[0].(*redis.BoolCmd).Val(), nil
}

// EXPIRE's own result is kept.
func expireResultKept(ctx context.Context, rdb *redis.Client, key string) (bool, error) {
	pipe := rdb.TxPipeline()
	set := pipe.SetNX(ctx, key, "t", 0)
	exp := pipe.Expire(ctx, key, ttl) // want `Expire in the same transaction`
	if _, err := pipe.Exec(ctx); err != nil {
		return false, err
	}
	return set.Val() && exp.Val(), nil
}

// The acquire is queued only on one path, the EXPIRE on every path: on
// the other path the EXPIRE renews a lock this process already holds.
func acquireOnOnePath(ctx context.Context, rdb *redis.Client, key string, held bool) error {
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		if !held {
			pipe.SetNX(ctx, key, "t", 0)
		}
		pipe.Expire(ctx, key, ttl) // want `Expire in the same transaction`
		return nil
	})
	return err
}

// EXPIRE queued under a condition of its own: deleting it would make the
// TTL unconditional, a decision left to a human.
func conditionalExpire(ctx context.Context, rdb *redis.Client, key string, expire bool) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, "t", 0)
		if expire {
			pipe.Expire(ctx, key, ttl) // want `Expire in the same transaction`
		}
		return nil
	})
}

// The pipeline is returned unsent: its results are read elsewhere.
func queueOnly(ctx context.Context, rdb *redis.Client, key string) redis.Pipeliner {
	pipe := rdb.TxPipeline()
	pipe.SetNX(ctx, key, "t", 0)
	pipe.Expire(ctx, key, ttl) // want `Expire in the same transaction`
	return pipe
}

// Two EXPIREs for one acquire: which TTL is meant is for a human.
func twoExpires(ctx context.Context, rdb *redis.Client, key string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, "t", 0)
		pipe.Expire(ctx, key, ttl)          // want `Expire in the same transaction`
		pipe.PExpire(ctx, key, time.Minute) // want `PExpire in the same transaction`
		return nil
	})
}

// GETSET takeover in a transaction: no fix, reported.
func getSet(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.GetSet(ctx, key, token)
		pipe.Expire(ctx, key, ttl) // want `Expire in the same transaction as GetSet runs even when the takeover lost, on another owner's lock key; use one SET with the TTL`
		return nil
	})
}

// A literal key with only the lock's own commands on it is still a lock.
func literalTakeover(ctx context.Context, rdb *redis.Client, token string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Expire(ctx, "nightly", ttl) // want `Expire before GetSet in the same transaction is undone by GetSet, which clears the TTL: the lock "nightly" is held forever; use one SET with the TTL`
		pipe.GetSet(ctx, "nightly", token)
		return nil
	})
}

// --- silent ---

// SET NX with a TTL in a pipeline: correct (if needlessly batched).
func ttlInPipeline(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	var set *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		set = pipe.SetNX(ctx, key, token, ttl)
		pipe.Incr(ctx, "lock:attempts")
		return nil
	})
	return set.Val(), err
}

// EXPIRE of a different key.
func otherKey(ctx context.Context, rdb *redis.Client, key string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, "t", 0)
		pipe.Expire(ctx, key+":meta", ttl)
		return nil
	})
}

// SET NX in one pipeline, EXPIRE in another.
func twoPipelines(ctx context.Context, rdb *redis.Client, key string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, "t", 0)
		return nil
	})
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Expire(ctx, key, ttl)
		return nil
	})
}

// One pipeline value sent twice: the two run in different batches.
func execBetween(ctx context.Context, rdb *redis.Client, key string) {
	pipe := rdb.TxPipeline()
	pipe.SetNX(ctx, key, "t", 0)
	pipe.Exec(ctx)
	pipe.Expire(ctx, key, ttl)
	pipe.Exec(ctx)
}

// SET NX sent on its own, EXPIRE in a pipeline: not this check.
func mixed(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.SetNX(ctx, key, "t", 0).Val() {
		rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Expire(ctx, key, ttl)
			return nil
		})
	}
}

// INCR + EXPIRE rate counter in a pipeline: not a lock.
func rate(ctx context.Context, rdb *redis.Client, key string) (int64, error) {
	var n *redis.IntCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		n = pipe.Incr(ctx, key)
		pipe.Expire(ctx, key, time.Minute)
		return nil
	})
	return n.Val(), err
}

// SET + EXPIRE cache write in a pipeline: not an acquire.
func cacheWrite(ctx context.Context, rdb *redis.Client, key string, val []byte) error {
	_, err := rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Set(ctx, key, val, 0)
		pipe.Expire(ctx, key, time.Hour)
		return nil
	})
	return err
}

// Optimistic lock: the key is read under WATCH, so EXEC aborts if anyone
// took it in between and the EXPIRE never reaches another owner's lock.
func watchChecked(ctx context.Context, rdb *redis.Client, key, token string) error {
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if err := tx.Get(ctx, key).Err(); err != redis.Nil {
			return ErrLocked
		}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.SetNX(ctx, key, token, 0)
			pipe.Expire(ctx, key, ttl)
			return nil
		})
		return err
	}, key)
}

// Acquire and expire on exclusive branches of the callback.
func branches(ctx context.Context, rdb *redis.Client, key string, renew bool) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		if renew {
			pipe.Expire(ctx, key, ttl)
		} else {
			pipe.SetNX(ctx, key, "t", 0)
		}
		return nil
	})
}

// EXPIRE with a zero TTL deletes the key (another check's finding).
func expireZero(ctx context.Context, rdb *redis.Client, key string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, "t", 0)
		pipe.Expire(ctx, key, 0)
		return nil
	})
}

// A test of the client's commands queues every one of them on the key
// "1": it holds the shapes of lock code (EXPIRE before GETSET, SETNX)
// and is none (lockid.Exercised).
func commandsOnOneKey(ctx context.Context, pipe redis.Pipeliner) {
	pipe.Del(ctx, "1")
	pipe.Exists(ctx, "1")
	pipe.Expire(ctx, "1", time.Second)
	pipe.ExpireNX(ctx, "1", time.Second)
	pipe.ExpireXX(ctx, "1", time.Second)
	pipe.ExpireAt(ctx, "1", time.Unix(1e9, 0))
	pipe.PExpire(ctx, "1", time.Second)
	pipe.Persist(ctx, "1")
	pipe.Set(ctx, "1", 2, 0)
	pipe.Get(ctx, "1")
	pipe.GetSet(ctx, "1", 2)
	pipe.SetNX(ctx, "1", 2, 0)
	pipe.Incr(ctx, "1")
}

// Several locks in one MULTI, the replies read by position (the SETNX
// replies at the even indexes): deleting the Expire would shift them.
func lockAll(ctx context.Context, rdb *redis.Client, keys []string, token string) (bool, error) {
	pipe := rdb.TxPipeline()
	for _, k := range keys {
		pipe.SetNX(ctx, k, token, 0)
		pipe.Expire(ctx, k, ttl) // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock k; pass the TTL to SetNX \(no fix: the transaction's replies are read, and deleting the Expire shifts them\)`
	}
	res, err := pipe.Exec(ctx)
	if err != nil {
		return false, err
	}
	for i, r := range res {
		if i%2 == 0 && !r.(*redis.BoolCmd).Val() {
			return false, nil
		}
	}
	return true, nil
}
