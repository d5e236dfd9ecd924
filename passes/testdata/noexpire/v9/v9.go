package v9

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

const unlockLua = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`

var unlockScript = redis.NewScript(unlockLua)

// SETNX with a zero TTL, released by a deferred DEL in the same function.
func deferDel(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, 0).Result() // want `lock key is acquired by SetNX with no TTL and nothing expires it: a dead holder keeps it forever; pass the TTL to SetNX; then its Del must check the owner \(LV201\)`
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// SET NX without TTL through SetArgs; the struct's Unlock releases with a
// compare-and-delete script.
type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
}

func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	err := m.rdb.SetArgs(ctx, m.key, m.token, redis.SetArgs{Mode: "NX"}).Err() // want `lock m\.key is acquired by SetArgs with no TTL and nothing expires it: a dead holder keeps it forever; pass the TTL to SetArgs`
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, nil
}

func (m *Mutex) Unlock(ctx context.Context) error {
	return unlockScript.Run(ctx, m.rdb, []string{m.key}, m.token).Err()
}

// KeepTTL on an absent key leaves none; released by a returned closure.
func keepTTL(ctx context.Context, rdb redis.Cmdable, name string) (func(), error) {
	key := "lock:" + name
	if !rdb.SetNX(ctx, key, "1", redis.KeepTTL).Val() { // want `lock key is acquired by SetNX with no TTL and nothing expires it: a dead holder keeps it forever; pass the TTL to SetNX; then its Unlink must check a random token \(LV201, LV204\)`
		return nil, errBusy
	}
	return func() { rdb.Unlink(ctx, key) }, nil
}

// Released through a helper of the package.
func release(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
}

func withHelper(ctx context.Context, rdb *redis.Client, key string) error {
	if !rdb.SetNX(ctx, key, "t", 0).Val() { // want `lock key is acquired by SetNX`
		return errBusy
	}
	defer release(ctx, rdb, key)
	return work(ctx)
}

// Sprintf key, acquire and release in two functions named as a lock.
func lockJob(ctx context.Context, rdb *redis.ClusterClient, id int) bool {
	return rdb.SetNX(ctx, fmt.Sprintf("job:%d:owner", id), "w1", 0).Val() // want `lock fmt.Sprintf\("job:%d:owner", id\) is acquired by SetNX`
}

func unlockJob(ctx context.Context, rdb *redis.ClusterClient, id int) {
	rdb.Del(ctx, fmt.Sprintf("job:%d:owner", id))
}

// Eval of a compare-and-delete in the same function, critical section in
// between.
func evalRelease(ctx context.Context, rdb *redis.Client, token string) error {
	const key = "cron:nightly"
	if !rdb.SetNX(ctx, key, token, 0).Val() { // want `lock key is acquired by SetNX`
		return errBusy
	}
	if err := work(ctx); err != nil {
		return err
	}
	return rdb.Eval(ctx, unlockLua, []string{key}, token).Err()
}

// Acquire in a retry loop, DEL at the end.
func retryLoop(ctx context.Context, rdb *redis.Client, key string) error {
	for {
		ok, err := rdb.SetNX(ctx, key, "t", 0).Result() // want `lock key is acquired by SetNX`
		if err != nil {
			return err
		}
		if ok {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	err := work(ctx)
	rdb.Del(ctx, key)
	return err
}

func work(context.Context) error { return nil }

// --- silent ---

// SET NX with a TTL and a Lua release: correct.
func correct(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return work(ctx)
}

// SetArgs NX with a TTL.
func correctArgs(ctx context.Context, rdb *redis.Client, key, token string) error {
	err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: time.Minute}).Err()
	if errors.Is(err, redis.Nil) {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// SETNX then EXPIRE: LV101's finding, not this one.
func thenExpire(ctx context.Context, rdb *redis.Client, key string) error {
	if !rdb.SetNX(ctx, key, "t", 0).Val() {
		return errBusy
	}
	rdb.Expire(ctx, key, time.Minute)
	defer rdb.Del(ctx, key)
	return work(ctx)
}

// A set-once marker, never deleted: not a lock.
func marker(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "migrated:"+id, 1, 0).Val()
}

// An idempotency key, with or without a TTL, never deleted.
func idempotent(ctx context.Context, rdb *redis.Client, requestID string) (bool, error) {
	first, err := rdb.SetNX(ctx, "idem:"+requestID, 1, 24*time.Hour).Result()
	if err != nil {
		return false, err
	}
	seen := rdb.SetNX(ctx, "seen:"+requestID, 1, 0).Val()
	return first && !seen, nil
}

// A cache filled with SETNX and invalidated elsewhere: nothing says lock.
func fillCache(ctx context.Context, rdb *redis.Client, userID int, data string) {
	rdb.SetNX(ctx, fmt.Sprintf("user:%d", userID), data, 0)
}

func invalidate(ctx context.Context, rdb *redis.Client, userID int) {
	rdb.Del(ctx, fmt.Sprintf("user:%d", userID))
}

// The key is renewed elsewhere with a compare-and-pexpire script.
type Renewed struct {
	rdb *redis.Client
	key string
}

var renewScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

func (r *Renewed) Lock(ctx context.Context) bool {
	return r.rdb.SetNX(ctx, r.key, "t", 0).Val()
}

func (r *Renewed) Renew(ctx context.Context) {
	renewScript.Run(ctx, r.rdb, []string{r.key}, "t", 5000)
}

func (r *Renewed) Unlock(ctx context.Context) {
	r.rdb.Del(ctx, r.key)
}

// The key is written with a TTL on another path.
func writeTTL(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.SetNX(ctx, key, "t", 0).Val() {
		rdb.Set(ctx, key, "t", time.Minute)
		rdb.Del(ctx, key)
	}
}

// DEL before the acquire resets a marker; nothing releases after it.
func reset(ctx context.Context, rdb *redis.Client, key string) bool {
	rdb.Del(ctx, key)
	return rdb.SetNX(ctx, key, "t", 0).Val()
}

// A script lockvet cannot read touches the key: it may expire it.
func opaque(ctx context.Context, rdb *redis.Client, s *redis.Script, key string) {
	if rdb.SetNX(ctx, key, "t", 0).Val() {
		s.Run(ctx, rdb, []string{key})
		rdb.Del(ctx, key)
	}
}

// Lock libraries.
func withRedsync(ctx context.Context, rdb *redis.Client) error {
	rs := redsync.New(goredis.NewPool(rdb))
	m := rs.NewMutex("lock:report", redsync.WithExpiry(10*time.Second))
	if err := m.LockContext(ctx); err != nil {
		return err
	}
	defer m.UnlockContext(ctx)
	return work(ctx)
}

func withRedislock(ctx context.Context, rdb *redis.Client) error {
	lock, err := redislock.New(rdb).Obtain(ctx, "lock:report", 10*time.Second, nil)
	if err != nil {
		return err
	}
	defer lock.Release(ctx)
	return work(ctx)
}

// Set once in production; only a test deletes it.
func bootOnce(ctx context.Context, rdb *redis.Client, name string) bool {
	return rdb.SetNX(ctx, "lock:boot:"+name, 1, 0).Val()
}
