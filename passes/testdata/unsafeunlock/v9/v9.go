package v9

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

var ErrLocked = errors.New("locked")

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// --- reported ---

// The incident's shape: acquire with a token, release with a deferred DEL.
func deferred(ctx context.Context, rdb *redis.Client, key string, work func()) error {
	token := newToken()
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrLocked
	}
	defer rdb.Del(ctx, key) // want `Del of lock key key does not check the owner, so after the TTL it can delete another holder's lock; delete only while it holds the token`
	work()
	return nil
}

// A release closure returned by the acquiring function; key built with
// fmt.Sprintf; Err() of the DEL returned.
func Acquire(ctx context.Context, rdb redis.Cmdable, jobID int) (func() error, error) {
	token := newToken()
	if !rdb.SetNX(ctx, fmt.Sprintf("lock:job:%d", jobID), token, ttl).Val() {
		return nil, ErrLocked
	}
	return func() error {
		return rdb.Del(ctx, fmt.Sprintf("lock:job:%d", jobID)).Err() // want `Del of lock key fmt.Sprintf\("lock:job:%d", jobID\) does not check the owner`
	}, nil
}

// Lock/Unlock pair through struct fields; Unlink; the release's count is
// read with Result().
type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
}

func (m *Mutex) Lock(ctx context.Context) error {
	m.token = newToken()
	return m.rdb.SetArgs(ctx, m.key, m.token, redis.SetArgs{Mode: "NX", TTL: ttl}).Err()
}

func (m *Mutex) Unlock(ctx context.Context) (bool, error) {
	n, err := m.rdb.Unlink(ctx, m.key).Result() // want `Unlink of lock key m.key does not check the owner`
	return n == 1, err
}

// A same-package helper releases the key the caller acquired: reported in
// the helper; no fix, the helper has no token.
func release(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
}

func withHelper(ctx context.Context, rdb *redis.Client, key string) {
	if !rdb.SetNX(ctx, key, newToken(), ttl).Val() {
		return
	}
	defer release(ctx, rdb, key)
}

// Cluster client, constant key, a constant value: no fix, see LV204.
const reportLock = "lock:report"

func constValue(ctx context.Context, rdb *redis.ClusterClient) {
	if !rdb.SetNX(ctx, reportLock, "locked", time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, reportLock) // want `Del of lock key reportLock does not check the owner, and every holder writes "locked": it can delete another holder's lock \(LV204\)`
}

// The token is computed in the acquire call and not kept: reported, no fix.
func tokenNotKept(ctx context.Context, rdb *redis.Client, key string) {
	if rdb.SetNX(ctx, key, newToken(), ttl).Val() {
		rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
	}
}

// The DEL's reply is used as an *IntCmd value: reported, no fix (a script
// returns a *Cmd).
func replyKept(ctx context.Context, rdb *redis.Client, key, token string) *redis.IntCmd {
	rdb.SetNX(ctx, key, token, ttl)
	return rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
}

// Val() of the DEL compared: no script fix.
func valUsed(ctx context.Context, rdb *redis.Client, key, token string) bool {
	rdb.SetNX(ctx, key, token, ttl)
	return rdb.Del(ctx, key).Val() == 1 // want `Del of lock key key does not check the owner`
}

// Val() dropped, and the error of DEL checked in an if.
func valDropped(ctx context.Context, rdb *redis.Client, key, token string) error {
	rdb.SetNX(ctx, key, token, ttl)
	rdb.Del(ctx, key).Val()                         // want `Del of lock key key does not check the owner`
	if err := rdb.Del(ctx, key).Err(); err != nil { // want `Del of lock key key does not check the owner`
		return err
	}
	return nil
}

// The token variable changes after the acquire: no fix.
func tokenChanged(ctx context.Context, rdb *redis.Client, key string) {
	token := newToken()
	rdb.SetNX(ctx, key, token, ttl)
	token = ""
	_ = token
	rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
}

// Released in a transaction pipeline: the script runs with Eval there.
func inPipeline(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return ErrLocked
	}
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Del(ctx, key) // want `Del of lock key key does not check the owner`
		pipe.Incr(ctx, "released")
		return nil
	})
	return err
}

// The command list of the batch is read, or the batch is flushed elsewhere:
// a *Cmd in place of the *IntCmd would break that code, so no fix.
func pipelineRead(ctx context.Context, rdb *redis.Client, key, token string) (int64, error) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return 0, ErrLocked
	}
	cmds, err := rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.Del(ctx, key) // want `Del of lock key key does not check the owner`
		return nil
	})
	if err != nil {
		return 0, err
	}
	return cmds[0].(*redis.IntCmd).Val(), nil
}

func pipelineValue(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return ErrLocked
	}
	pipe := rdb.TxPipeline()
	pipe.Del(ctx, key) // want `Del of lock key key does not check the owner`
	_, err := pipe.Exec(ctx)
	return err
}

// SETNX without a TTL, then EXPIRE (LV101's finding): the lock expires, so
// its DEL is reported too.
func expiredLater(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.SetNX(ctx, key, token, 0).Val() {
		rdb.Expire(ctx, key, ttl)
		_ = rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
	}
}

// Several keys deleted at once: reported, no fix.
func manyKeys(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.SetNX(ctx, key, token, ttl)
	rdb.Del(ctx, key, key+":data") // want `Del of lock key key does not check the owner`
}

// A DEL of a pattern releases nothing.
func cleanupPattern(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:job:*") // want `Del does not expand patterns: it deletes only a key named exactly "lock:job:\*", and no lock is released; find the keys with SCAN MATCH`
}

func startup(ctx context.Context, rdb *redis.Client) {
	rdb.Unlink(ctx, "locks:*") // want `Unlink does not expand patterns`
}

// A key that an acquire names literally is that key, even with a '?': a
// plain unsafe release of a lock acquired elsewhere.
func questionAcquire(ctx context.Context, rdb *redis.Client, token string) {
	rdb.SetNX(ctx, "lock:job?id=7", token, ttl)
}

func questionRelease(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:job?id=7") // want `Del of lock key "lock:job\?id=7" does not check the owner`
}

// --- silent ---

// Compare-and-delete script (a local script object: the fixes above do not
// reuse it, they declare a package-level one).
func scriptRelease(ctx context.Context, rdb *redis.Client, key, token string) {
	unlock := redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	defer unlock.Run(ctx, rdb, []string{key}, token)
}

// Compare-and-delete with Eval.
func evalRelease(ctx context.Context, rdb *redis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	rdb.Eval(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`, []string{key}, token)
}

// DELEX IFEQ (Redis 8.4).
func delEx(ctx context.Context, rdb *redis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	rdb.DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ", MatchValue: token})
}

// WATCH, GET, then DEL in MULTI/EXEC: the optimistic compare-and-delete.
func watched(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return ErrLocked
	}
	return rdb.Watch(ctx, func(tx *redis.Tx) error {
		if tx.Get(ctx, key).Val() != token {
			return nil
		}
		_, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, key)
			return nil
		})
		return err
	}, key)
}

// redsync and bsm/redislock do the owner check themselves.
func withRedsync(rdb *redis.Client) error {
	rs := redsync.New(goredis.NewPool(rdb))
	m := rs.NewMutex("lock:report")
	if err := m.Lock(); err != nil {
		return err
	}
	_, err := m.Unlock()
	return err
}

func withRedislock(ctx context.Context, rdb *redis.Client) error {
	lock, err := redislock.Obtain(ctx, rdb, "lock:report", ttl, nil)
	if err != nil {
		return err
	}
	return lock.Release(ctx)
}

// Cache and session deletes: no lock evidence.
func invalidate(ctx context.Context, rdb *redis.Client, userID int) {
	rdb.Del(ctx, fmt.Sprintf("user:%d", userID))
	rdb.Del(ctx, "session:abc")
	rdb.Del(ctx, "cache:*") // a pattern, but not about locks
}

// A set-once marker with no TTL, deleted only when the work failed so
// that a retry can claim it: no holder's lock to delete.
func migrate(ctx context.Context, rdb *redis.Client, id string, work func() error) {
	if !rdb.SetNX(ctx, "migrated:"+id, 1, 0).Val() {
		return
	}
	if err := work(); err != nil {
		rdb.Del(ctx, "migrated:"+id)
	}
}

// An idempotency key, kept on success and deleted on failure so that the
// request can be retried.
func handle(ctx context.Context, rdb *redis.Client, reqID string, process func() error) error {
	key := "idem:" + reqID
	if !rdb.SetNX(ctx, key, 1, 24*time.Hour).Val() {
		return nil // duplicate
	}
	if err := process(); err != nil {
		rdb.Del(ctx, key)
		return err
	}
	return nil
}

// The same with a deferred cleanup on a named error.
func handleDeferred(ctx context.Context, rdb *redis.Client, reqID string, process func() error) (err error) {
	key := "idem:" + reqID
	if !rdb.SetNX(ctx, key, 1, 24*time.Hour).Val() {
		return nil
	}
	defer func() {
		if err != nil {
			rdb.Del(ctx, key)
		}
	}()
	return process()
}

// A DEL when the acquire failed is a deliberate takeover of someone
// else's lock, not a release of ours.
func breakStale(ctx context.Context, rdb *redis.Client, key, token string) bool {
	ok := rdb.SetNX(ctx, key, token, ttl).Val()
	if !ok {
		if rdb.TTL(ctx, key).Val() == -1 {
			rdb.Del(ctx, key)
		}
		return false
	}
	return true
}

func breakStaleInline(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	} else {
		rdb.Del(ctx, key)
	}
}

// GET, compare, DEL: LV202's finding, not this one's.
func checkThenDel(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.SetNX(ctx, key, token, ttl)
	if rdb.Get(ctx, key).Val() == token {
		rdb.Del(ctx, key)
	}
}

// A DEL that cannot run after the acquire.
func either(ctx context.Context, rdb *redis.Client, key, token string, take bool) {
	if take {
		rdb.SetNX(ctx, key, token, ttl)
	} else {
		rdb.Del(ctx, key)
	}
}

// DEL before the acquire: clearing, not releasing.
func reset(ctx context.Context, rdb *redis.Client, key, token string) {
	rdb.Del(ctx, key)
	rdb.SetNX(ctx, key, token, ttl)
}

// '?' in a key that is not acquired anywhere: not taken for a pattern.
func questionKey(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:page?id=7")
}

// The DEL's command value kept in a variable and read by Err: the script's
// *Cmd has Err too, so the release is rewritten and the reads stay.
func cmdKept(ctx context.Context, rdb *redis.Client, key, token string) error {
	rdb.SetNX(ctx, key, token, ttl)
	ret := rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
	if ret.Err() != nil {
		return ret.Err()
	}
	return nil
}

// Kept, and its count read by Result: Result becomes Int64, which the
// script's *Cmd answers with the keys deleted.
func cmdKeptCount(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	rdb.SetNX(ctx, key, token, ttl)
	ret := rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
	n, err := ret.Result()
	return n == 1, err
}

// Kept and its Val compared: a *Cmd's Val is no count, so no fix.
func cmdKeptVal(ctx context.Context, rdb *redis.Client, key, token string) bool {
	rdb.SetNX(ctx, key, token, ttl)
	ret := rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
	return ret.Val() == 1
}
