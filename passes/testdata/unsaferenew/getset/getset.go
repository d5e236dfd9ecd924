package getset

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const lockTTL = 10 * time.Second

// A machine id held as a lock: a candidate id is taken with SET NX and
// the instance's random id, then renewed on a ticker by GETSET (which
// overwrites before it checks) and EXPIRE in one MULTI/EXEC.
type Allocator struct {
	rdb  *redis.Client
	ns   string
	id   uint
	uuid string
}

func (a *Allocator) candidateKey(id uint) string { return fmt.Sprintf("%s:id:%d", a.ns, id) }
func (a *Allocator) lockKey() string             { return fmt.Sprintf("%s:id:%d", a.ns, a.id) }

func (a *Allocator) Acquire(ctx context.Context, id uint) (bool, error) {
	ok, err := a.rdb.SetNX(ctx, a.candidateKey(id), a.uuid, lockTTL).Result()
	if err == nil && ok {
		a.id = id
	}
	return ok, err
}

func (a *Allocator) hold(ctx context.Context) error {
	pipe := a.rdb.TxPipeline()
	old := pipe.GetSet(ctx, a.lockKey(), a.uuid) // want `GetSet renews lock a\.lockKey\(\) by hold, called in a loop, overwriting it before checking the old value: it can replace and extend another holder's lock.* \(no fix: GETSET and its EXPIRE must become one script\)`
	pipe.Expire(ctx, a.lockKey(), lockTTL)
	if _, err := pipe.Exec(ctx); err != nil {
		return err
	}
	if v := old.Val(); v != a.uuid {
		return errors.New("lock lost")
	}
	return nil
}

func (a *Allocator) Run(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := a.hold(ctx); err != nil {
				return
			}
		}
	}
}

// A Lock/Refresh pair: the refresh sends GETSET then EXPIRE.
type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
}

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.token, lockTTL).Result()
}

func (m *Mutex) Refresh(ctx context.Context) error {
	if err := m.rdb.GetSet(ctx, m.key, m.token).Err(); err != nil { // want `GetSet renews lock m\.key in Refresh, overwriting it before checking the old value.* \(no fix: GETSET and its EXPIRE must become one script\)`
		return err
	}
	return m.rdb.Expire(ctx, m.key, lockTTL).Err()
}

// --- silent ---

// A counter reset by GETSET on a ticker: no acquire, no token.
func resetCounter(ctx context.Context, rdb *redis.Client) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for range t.C {
		n, _ := rdb.GetSet(ctx, "requests", 0).Int64()
		fmt.Println(n)
	}
}

// The old SETNX recipe's takeover: GETSET in the acquire's own retry
// loop takes an expired lock; it renews nothing.
func takeover(ctx context.Context, rdb *redis.Client, key string) bool {
	for i := 0; i < 3; i++ {
		stamp := fmt.Sprint(time.Now().Add(lockTTL).UnixNano())
		if ok, _ := rdb.SetNX(ctx, key, stamp, lockTTL).Result(); ok {
			return true
		}
		if old := rdb.GetSet(ctx, key, stamp).Val(); old == stamp {
			return true
		}
	}
	return false
}

// The same takeover in a Lock that a retry loop calls: the loop runs the
// acquire again too.
func tryLock(ctx context.Context, rdb *redis.Client, key string, stamp int64) bool {
	if ok, _ := rdb.SetNX(ctx, key, stamp, lockTTL).Result(); ok {
		return true
	}
	old, _ := rdb.GetSet(ctx, key, stamp).Int64()
	return old == stamp
}

func lockWithRetries(ctx context.Context, rdb *redis.Client, key string) bool {
	for i := 0; i < 3; i++ {
		if tryLock(ctx, rdb, key, time.Now().Add(lockTTL).UnixNano()) {
			return true
		}
	}
	return false
}
