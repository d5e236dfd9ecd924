package v9

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

var errBusy = errors.New("lock busy")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func work(context.Context) error { return nil }

type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
}

// Only SetNX's error is checked: busy (false, nil) is taken for acquired.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	if err := m.rdb.SetNX(ctx, m.key, m.token, ttl).Err(); err != nil { // want `only the error of SetNX is checked: a held lock is false with a nil error, so this runs without the lock; check the bool too`
		return false, err
	}
	return true, nil
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return unlockScript.Run(ctx, m.rdb, []string{m.key}, m.token).Err()
}

// The same in a function with no results, the check in a separate if.
func runJob(ctx context.Context, rdb *redis.Client, key string) {
	err := rdb.SetNX(ctx, key, "worker-1", ttl).Err() // want `only the error of SetNX is checked`
	if err != nil {
		log.Println("lock:", err)
		return
	}
	_ = work(ctx)
	rdb.Del(ctx, key)
}

// The value slot of Result discarded.
func acquire(ctx context.Context, rdb redis.Cmdable, key, token string) (bool, error) {
	_, err := rdb.SetNX(ctx, key, token, ttl).Result() // want `only the error of SetNX is checked`
	if err != nil {
		return false, err
	}
	return true, nil
}

// The error is all the caller gets: reported, no fix (no busy value).
func lockReport(ctx context.Context, rdb *redis.Client) error {
	return rdb.SetNX(ctx, "lock:report", 1, ttl).Err() // want `only the error of SetNX is checked`
}

// The reply is discarded before the critical section.
func discard(ctx context.Context, rdb *redis.Client, key string) error {
	rdb.SetNX(ctx, key, "t", ttl) // want `the reply of SetNX is discarded`
	defer rdb.Del(ctx, key)
	return work(ctx)
}

type Locker struct {
	rdb *redis.Client
	key string
}

func (l *Locker) Lock(ctx context.Context) {
	_ = l.rdb.SetNX(ctx, l.key, "t", ttl) // want `the reply of SetNX is discarded`
}

func (l *Locker) Unlock(ctx context.Context) {
	l.rdb.Del(ctx, l.key)
}

func discardErr(ctx context.Context, rdb *redis.Client, id string) {
	rdb.SetNX(ctx, "lock:"+id, "t", ttl).Err() // want `the reply of SetNX is discarded`
}

// SET NX: only redis.Nil handled, a timeout falls through as acquired.
func setArgs(ctx context.Context, rdb *redis.Client, key, token string) error {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err() // want `only the busy reply of SetArgs \(redis.Nil\) is handled`
	if err == redis.Nil {
		return errBusy
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return work(ctx)
}

// The same with errors.Is in the if's init, (bool, error).
func (m *Mutex) TryLockArgs(ctx context.Context) (bool, error) {
	if _, err := m.rdb.SetArgs(ctx, m.key, m.token, redis.SetArgs{Mode: "NX", TTL: ttl}).Result(); errors.Is(err, redis.Nil) { // want `only the busy reply of SetArgs`
		return false, nil
	}
	return true, nil
}

// In place, and in a switch: reported, no fix.
func inPlace(ctx context.Context, rdb *redis.Client, key string) error {
	if rdb.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", TTL: ttl}).Err() == redis.Nil { // want `only the busy reply of SetArgs`
		return errBusy
	}
	defer rdb.Del(ctx, key)
	return work(ctx)
}

func inSwitch(ctx context.Context, rdb *redis.Client, key string) bool {
	err := rdb.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", TTL: ttl}).Err() // want `only the busy reply of SetArgs`
	switch err {
	case redis.Nil:
		return false
	}
	rdb.Del(ctx, key)
	return true
}

// Fail-open: an error returns "acquired".
func tryLock(ctx context.Context, rdb *redis.Client, key string) bool {
	ok, err := rdb.SetNX(ctx, key, "t", ttl).Result() // want `when SetNX fails, this path returns true \(acquired\)`
	if err != nil {
		log.Printf("redis down: %v", err)
		return true
	}
	return ok
}

func (m *Mutex) Acquire(ctx context.Context) (bool, error) {
	err := m.rdb.SetArgs(ctx, m.key, m.token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err() // want `when SetArgs fails, this path returns true`
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		log.Print(err)
	}
	return true, nil
}

// A failed SET NX logged, then the critical section and the release.
func logAndGo(ctx context.Context, rdb *redis.Client, key string) {
	err := rdb.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", TTL: ttl}).Err() // want `when SetArgs fails, this path still runs the work and the release without the lock; stop on the error`
	if err == redis.Nil {
		return
	}
	if err != nil {
		log.Print(err)
	}
	_ = work(ctx)
	rdb.Del(ctx, key)
}

// err != nil except redis.Nil returns: busy goes on into the work.
func busyGoesOn(ctx context.Context, rdb *redis.Client, key, token string) error {
	if err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err(); err != nil && err != redis.Nil { // want `when SetArgs finds the lock busy, this path still runs the work and the release; stop when the key was not set`
		return err
	}
	_ = work(ctx)
	return unlockScript.Run(ctx, rdb, []string{key}, token).Err()
}

// The bool read but not tested before returning acquired.
func (m *Mutex) LockLogged(ctx context.Context) (bool, error) {
	ok, err := m.rdb.SetNX(ctx, m.key, m.token, ttl).Result() // want `when SetNX finds the lock busy, this path still returns true \(acquired\): two holders run at once; return false`
	if err != nil {
		return false, err
	}
	log.Printf("setnx %s: %v", m.key, ok)
	return true, nil
}

// --- silent ---

// SET NX with a TTL, both outcomes checked, Lua release.
func correct(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return work(ctx)
}

// SetArgs NX with TTL: redis.Nil and err != nil both handled.
func correctArgs(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer rdb.Del(ctx, key)
	return true, work(ctx)
}

// err != nil taken as busy without telling redis.Nil apart: fail-closed.
func failClosedArgs(ctx context.Context, rdb *redis.Client, key string) bool {
	if err := rdb.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", TTL: ttl}).Err(); err != nil {
		return false
	}
	defer rdb.Del(ctx, key)
	return true
}

// The status value compared with "OK": fail-closed.
func statusOK(ctx context.Context, rdb *redis.Client, key string) bool {
	if rdb.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", TTL: ttl}).Val() != "OK" {
		return false
	}
	defer rdb.Del(ctx, key)
	return true
}

// ok, _ := …Result() and .Val() as the condition: an error reads as busy.
func failClosed(ctx context.Context, rdb *redis.Client, key string) bool {
	ok, _ := rdb.SetNX(ctx, key, "t", ttl).Result()
	if !ok {
		return false
	}
	defer rdb.Del(ctx, key)
	return true
}

func valCond(ctx context.Context, rdb *redis.Client, key string) error {
	if !rdb.SetNX(ctx, key, "t", ttl).Val() {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// ok && err == nil in one condition.
func combined(ctx context.Context, rdb *redis.Client, key string) bool {
	ok, err := rdb.SetNX(ctx, key, "t", ttl).Result()
	if ok && err == nil {
		rdb.Del(ctx, key)
		return true
	}
	return false
}

// err reused after the acquire.
func reused(ctx context.Context, rdb *redis.Client, key string) error {
	ok, err := rdb.SetNX(ctx, key, "t", ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	err = work(ctx)
	rdb.Del(ctx, key)
	return err
}

// A set-once marker: the bool does not matter, nothing is released.
func marker(ctx context.Context, rdb *redis.Client, id string) error {
	if err := rdb.SetNX(ctx, "migrated:"+id, 1, 0).Err(); err != nil {
		return err
	}
	return nil
}

// A cache entry written if absent.
func fill(ctx context.Context, rdb *redis.Client, k, v string) {
	rdb.SetNX(ctx, "cache:"+k, v, time.Hour)
}

// An idempotency key that fails open on purpose: not named or used as a
// lock.
func firstSeen(ctx context.Context, rdb *redis.Client, requestID string) bool {
	first, err := rdb.SetNX(ctx, "idem:"+requestID, 1, 24*time.Hour).Result()
	if err != nil {
		return true
	}
	return first
}

// Failing open, said so.
func (m *Mutex) TryLockOpen(ctx context.Context) bool {
	ok, err := m.rdb.SetNX(ctx, m.key, m.token, ttl).Result()
	if err != nil {
		// Fail open: the job is idempotent, availability wins.
		return true
	}
	return ok
}

// Busy, but the key already holds our token (a retried SET NX whose reply
// was lost): acquired.
func (m *Mutex) TryLockRetry(ctx context.Context) (bool, error) {
	ok, err := m.rdb.SetNX(ctx, m.key, m.token, ttl).Result()
	if err != nil {
		return false, err
	}
	if !ok {
		if m.rdb.Get(ctx, m.key).Val() == m.token {
			return true, nil
		}
		return false, nil
	}
	return true, nil
}

// The function's bool says "held by someone", not "acquired".
func (m *Mutex) IsLocked(ctx context.Context) bool {
	ok, err := m.rdb.SetNX(ctx, m.key, m.token, ttl).Result()
	if err != nil {
		return true
	}
	if ok {
		m.rdb.Del(ctx, m.key)
		return false
	}
	return true
}

// A test of the error this check does not read.
func custom(ctx context.Context, rdb *redis.Client, key string, transient func(error) bool) bool {
	ok, err := rdb.SetNX(ctx, key, "t", ttl).Result()
	if err != nil && transient(err) {
		return true
	}
	defer rdb.Del(ctx, key)
	return ok
}

// SET NX GET returns the old value, not a status.
func setGet(ctx context.Context, rdb *redis.Client, key, token string) bool {
	old, err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: ttl, Get: true}).Result()
	if err == redis.Nil {
		defer rdb.Del(ctx, key)
		return true
	}
	return old == token
}

// Queued in a pipeline: the reply is read after Exec.
func piped(ctx context.Context, rdb *redis.Client, key string) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, key, "t", ttl)
		return nil
	})
	rdb.Del(ctx, key)
	return err
}

// Lock libraries.
func withRedsync(ctx context.Context, rdb *redis.Client) error {
	m := redsync.New(goredis.NewPool(rdb)).NewMutex("lock:report")
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return work(ctx)
}

func withRedislock(ctx context.Context, rdb *redis.Client) error {
	lock, err := redislock.New(rdb).Obtain(ctx, "lock:report", ttl, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return work(ctx)
}

// The outcome copied into a variable the flow does not follow.
func derived(ctx context.Context, rdb *redis.Client, key string) bool {
	ok, err := rdb.SetNX(ctx, key, "t", ttl).Result()
	acquired := ok && err == nil
	if !acquired {
		return false
	}
	rdb.Del(ctx, key)
	return true
}

func derivedInPlace(ctx context.Context, rdb *redis.Client, key string, ready bool) bool {
	held := rdb.SetNX(ctx, key, "t", ttl).Val() && ready
	if !held {
		return false
	}
	rdb.Del(ctx, key)
	return true
}
