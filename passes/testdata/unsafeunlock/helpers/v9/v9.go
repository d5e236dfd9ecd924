// Lock helpers of one package: the acquire in one function, the release in
// its counterpart, the key a parameter of both (go-redis v9).
package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

// --- reported ---

// Package-level Lock/Unlock, the key a parameter: the DEL in Unlock deletes
// whoever holds the lock by then.
func Lock(ctx context.Context, key string) (bool, error) {
	return rdb.SetNX(ctx, key, "1", 10*time.Second).Result()
}

func Unlock(ctx context.Context, key string) error {
	return rdb.Del(ctx, key).Err() // want `Del of lock key key does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)`
}

// Methods of one type; the token is a parameter of the acquire only, so
// there is nothing to compare with in the release: no fix, the message
// says what to change.
type Locker struct{ rdb redis.UniversalClient }

func (l *Locker) TryLock(ctx context.Context, key, token string, ttl time.Duration) bool {
	return l.rdb.SetNX(ctx, key, token, ttl).Val()
}

func (l *Locker) Unlock(ctx context.Context, key string) {
	l.rdb.Del(ctx, key) // want `Del of lock key key does not check the owner, so after the TTL it can delete another holder's lock; Unlock has no token: pass it the token given to TryLock \(no fix: token is the caller's, and Unlock does not take it\)`
}

// The release helper takes the token, and ignores it: the fix compares it.
type Mutex struct{ rdb *redis.Client }

func (m *Mutex) Acquire(ctx context.Context, name, token string) error {
	ok, err := m.rdb.SetNX(ctx, "mutex:"+name, token, time.Minute).Result()
	if err == nil && !ok {
		err = redis.TxFailedErr
	}
	return err
}

func (m *Mutex) Release(ctx context.Context, name, token string) error {
	return m.rdb.Unlink(ctx, "mutex:"+name).Err() // want `Unlink of lock key "mutex:" \+ name does not check the owner`
}

// --- silent ---

// Another type's Unlock is no counterpart of Locker.TryLock.
type Other struct{ rdb *redis.Client }

func (o *Other) Unlock(ctx context.Context, key string) {
	o.rdb.Del(ctx, key)
}

// Cache helpers: no lock names, no pair.
func Set(ctx context.Context, key, value string) error {
	return rdb.SetNX(ctx, key, value, time.Hour).Err()
}

func Del(ctx context.Context, key string) error {
	return rdb.Del(ctx, key).Err()
}

// A lock with no TTL that nothing expires (LV103's): its bare DEL is
// reported too, as the TTL LV103 asks for makes it delete another
// holder's lock.
func LockForever(ctx context.Context, key string) bool {
	return rdb.SetNX(ctx, key, "1", 0).Val()
}

func UnlockForever(ctx context.Context, key string) {
	rdb.Del(ctx, key) // want `Del of lock key key does not check the owner, and every holder writes "1": once the lock has its TTL \(LV103\)`
}

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Released with an owner check.
func LockJob(ctx context.Context, job, token string) bool {
	return rdb.SetNX(ctx, job, token, time.Minute).Val()
}

func UnlockJob(ctx context.Context, job, token string) error {
	return unlockScript.Run(ctx, rdb, []string{job}, token).Err()
}

// The key built differently in the two helpers.
func LockUser(ctx context.Context, id string) bool {
	return rdb.SetNX(ctx, "user:"+id, "1", time.Minute).Val()
}

func UnlockUser(ctx context.Context, id string) {
	rdb.Del(ctx, id)
}
