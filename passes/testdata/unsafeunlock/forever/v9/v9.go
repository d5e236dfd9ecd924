// Package v9 takes locks with no TTL that nothing expires (LV103's
// finding) and releases them with a bare DEL: once the lock gets its TTL,
// that DEL deletes another holder's lock, and today a release by a caller
// that did not get the lock deletes the holder's.
package v9

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrLocked = errors.New("locked")

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// --- reported ---

// A random token, no TTL: the fix compares the token.
func withToken(ctx context.Context, rdb *redis.Client, key string, work func()) error {
	token := newToken()
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil || !ok {
		return ErrLocked
	}
	defer rdb.Del(ctx, key) // want `Del of lock key key does not check the owner: once the lock has its TTL \(LV103\), it can delete another holder's lock, and a release by a caller that did not get the lock deletes the holder's today; delete only while it holds the token`
	work()
	return nil
}

// A lock per key of a batch, the constant "1" as value, each released by
// a DEL in a loop over the keys the counterpart returned.
func LockKeys(ctx context.Context, rdb *redis.Client, keys []string) ([]string, error) {
	var acquired []string
	for _, key := range keys {
		lockKey := "lock:row:" + key
		var ok bool
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if ok, err = rdb.SetNX(ctx, lockKey, "1", 0).Result(); err == nil && ok {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil || !ok {
			continue
		}
		acquired = append(acquired, lockKey)
	}
	return acquired, nil
}

func UnlockKeys(ctx context.Context, rdb *redis.Client, lockKeys []string) {
	for _, lockKey := range lockKeys {
		if err := rdb.Del(ctx, lockKey).Err(); err != nil { // want `Del of lock key lockKey does not check the owner, and every holder writes "1": once the lock has its TTL \(LV103\), it can delete another holder's lock, and a release by a caller that did not get the lock deletes the holder's today \(LV204\)`
			continue
		}
	}
}

// INCR as the lock: the first caller reads 1. Unlock is its counterpart.
type Locker struct{ rdb *redis.Client }

func (l *Locker) IsLocked(ctx context.Context, name string) bool {
	n, err := l.rdb.Incr(ctx, "mutex:"+name).Result()
	return err != nil || n > 1
}

func (l *Locker) Unlock(ctx context.Context, name string) {
	l.rdb.Del(ctx, "mutex:"+name) // want `Del of lock key "mutex:" \+ name does not check the owner: once the lock has its TTL \(LV103\), it can delete another holder's lock`
}

// --- silent ---

// No lock evidence: a session key, next to a lock of another key.
func logout(ctx context.Context, rdb *redis.Client, id string) {
	if rdb.SetNX(ctx, "lock:logout:"+id, newToken(), time.Minute).Val() {
		rdb.Del(ctx, "session:"+id)
	}
}

// A marker with no TTL, deleted only when the work failed so that a
// retry can claim it again: no holder's lock to delete.
func once(ctx context.Context, rdb *redis.Client, id string, work func() error) error {
	key := "done:" + id
	if !rdb.SetNX(ctx, key, 1, 0).Val() {
		return nil
	}
	if err := work(); err != nil {
		rdb.Del(ctx, key)
		return err
	}
	return nil
}

// A counter created at zero with no TTL, counted and reset: no lock.
func Seed(ctx context.Context, rdb *redis.Client, id string) {
	rdb.SetNX(ctx, "hits:"+id, 0, 0)
}

func Hit(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Incr(ctx, "hits:"+id)
}

func Reset(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, "hits:"+id)
}

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// A lock with a TTL, released by compare-and-delete: as today.
func checked(ctx context.Context, rdb *redis.Client, key string, work func()) error {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return ErrLocked
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	work()
	return nil
}

// No TTL, released by compare-and-delete: LV103's alone.
func checkedForever(ctx context.Context, rdb *redis.Client, key string, work func()) error {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, 0).Val() {
		return ErrLocked
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	work()
	return nil
}

// No TTL at the acquire, but another function of the package expires the
// key (LV101's pair): LV201 speaks of it as of any lock with a TTL, and
// this DEL is in another function, unnamed, so not this rule's case.
func claim(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "job:"+id, newToken(), 0).Val()
}

func arm(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Expire(ctx, "job:"+id, time.Minute)
}

// A key filled with SETNX and invalidated elsewhere: no function or key
// names a lock, so the DEL is no release of a lock (LV103 is silent too).
func fill(ctx context.Context, rdb *redis.Client, id, v string) {
	rdb.SetNX(ctx, "profile:"+id, v, 0)
}

func invalidate(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Del(ctx, "profile:"+id)
}

// A takeover after a failed acquire: the DEL runs only when SetNX said
// the key was taken (as for locks with a TTL).
func takeover(ctx context.Context, rdb *redis.Client, key string) {
	ok, _ := rdb.SetNX(ctx, key, newToken(), 0).Result()
	if !ok {
		rdb.Del(ctx, key)
	}
}
