package v9

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// An integer constant, released by a deferred DEL.
func withIntValue(ctx context.Context, rdb *redis.Client, key string) error {
	ok, err := rdb.SetNX(ctx, key, 1, ttl).Result() // want `lock key is acquired with the constant 1 and released, so no owner check can tell holders apart; use a random token`
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, key)
	return nil
}

// A named constant in a lock type; released in another method.
const lockValue = "locked"

type Mutex struct {
	rdb *redis.Client
	key string
}

func (m *Mutex) Lock(ctx context.Context) bool {
	return m.rdb.SetNX(ctx, m.key, lockValue, ttl).Val() // want `lock m.key is acquired with the constant lockValue \("locked"\)`
}

func (m *Mutex) Unlock(ctx context.Context) {
	m.rdb.Del(ctx, m.key)
}

// true, renewed in a loop.
func withBool(ctx context.Context, rdb *redis.Client, key string, t *time.Ticker) {
	if !rdb.SetNX(ctx, key, true, ttl).Val() { // want `lock key is acquired with the constant true and renewed, so no owner check can tell holders apart; use a random token`
		return
	}
	for range t.C {
		rdb.Expire(ctx, key, ttl)
	}
}

// The key itself as the value.
func keyAsValue(ctx context.Context, rdb *redis.Client, id int) {
	key := fmt.Sprintf("lock:order:%d", id)
	if rdb.SetNX(ctx, key, key, ttl).Val() { // want `lock key is acquired with its own key as the value`
		defer rdb.Del(ctx, key)
	}
}

// The process ID, released by a compare-and-delete script: the script's
// owner check compares equal for every goroutine of the process and for
// any process with the same PID on another host.
func withPID(ctx context.Context, rdb *redis.Client, key string) {
	val := strconv.Itoa(os.Getpid())
	if !rdb.SetNX(ctx, key, val, ttl).Val() { // want `lock key is acquired with the process ID \(val\), which repeats across hosts and released, so no owner check can tell holders apart; use a random token`
		return
	}
	defer unlock.Run(ctx, rdb, []string{key}, val)
}

// string(int) is one character, not the digits.
func withRune(ctx context.Context, rdb *redis.Client, key string, worker int) {
	rdb.SetNX(ctx, key, string(rune(worker)), ttl) // want `acquired with string\(rune\(worker\)\), a one-character string`
	rdb.Del(ctx, key)
}

// A local initialized with a constant, released by a compare-and-delete
// whose token is that same constant: still unguarded.
func viaLocal(ctx context.Context, rdb *redis.Client, key string) {
	v := "1"
	if rdb.SetNX(ctx, key, v, ttl).Val() { // want `lock key is acquired with v \("1"\), a variable only ever holding a constant and released, so no owner check can tell holders apart; use a random token`
		unlock.Run(ctx, rdb, []string{key}, v)
	}
}

// A package-level variable set once to a constant; a format-string key.
var owner = "node-1"

func lockJob(ctx context.Context, rdb *redis.Client, id int) bool {
	return rdb.SetNX(ctx, fmt.Sprintf("lock:job:%d", id), owner, ttl).Val() // want `lock fmt\.Sprintf\("lock:job:%d", id\) is acquired with owner \("node-1"\), a variable only ever holding a constant and released, so no owner check can tell holders apart; use a random token`
}

func unlockJob(ctx context.Context, rdb *redis.Client, id int) {
	rdb.Del(ctx, fmt.Sprintf("lock:job:%d", id))
}

// The PID formatted with a prefix is still the PID.
func withPIDPrefix(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, "lock:cron", fmt.Sprintf("pid-%d", os.Getpid()), ttl) // want `the process ID`
}

func releaseCron(ctx context.Context, rdb *redis.Client) {
	rdb.Unlink(ctx, "lock:cron")
}

// The acquire writes a field; the release's owner check compares with a
// constant.
type Lease struct {
	rdb   *redis.Client
	name  string
	token string
}

func (l *Lease) Acquire(ctx context.Context) bool {
	l.token = newToken()
	return l.rdb.SetNX(ctx, l.name, l.token, ttl).Val()
}

func (l *Lease) Release(ctx context.Context) {
	unlock.Run(ctx, l.rdb, []string{l.name}, "1") // want `the owner check of lock l.name compares it with "1", a value every caller passes`
}

// No TTL, then EXPIRE, then DEL: the lock can expire, so the release
// needs an owner.
func ttlLater(ctx context.Context, rdb *redis.Client, key string) {
	if !rdb.SetNX(ctx, key, "x", 0).Val() { // want `lock key is acquired with the constant "x" and released, so no owner check can tell holders apart; use a random token`
		return
	}
	rdb.Expire(ctx, key, ttl)
	defer rdb.Del(ctx, key)
}

// --- silent ---

// A constant value that nothing releases or renews: a set-once marker.
func markProcessed(ctx context.Context, rdb *redis.Client, id string) bool {
	return rdb.SetNX(ctx, "processed:"+id, 1, 24*time.Hour).Val()
}

// A random token, a parameter, a field.
func withToken(ctx context.Context, rdb *redis.Client, key string) {
	token := newToken()
	if rdb.SetNX(ctx, key, token, ttl).Val() {
		defer unlock.Run(ctx, rdb, []string{key}, token)
	}
}

func withParam(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.SetNX(ctx, key, token, ttl).Val() {
		defer unlock.Run(ctx, rdb, []string{key}, token)
	}
}

type Job struct {
	rdb   *redis.Client
	key   string
	owner string
}

func (j *Job) Lock(ctx context.Context) bool { return j.rdb.SetNX(ctx, j.key, j.owner, ttl).Val() }
func (j *Job) Unlock(ctx context.Context)    { unlock.Run(ctx, j.rdb, []string{j.key}, j.owner) }

// A timestamp to the nanosecond: unique enough across acquisitions in
// practice; left alone.
func withTime(ctx context.Context, rdb *redis.Client, key string) {
	now := time.Now().String()
	if rdb.SetNX(ctx, key, now, ttl).Val() {
		defer unlock.Run(ctx, rdb, []string{key}, now)
	}
}

// Host plus PID: one per process, written by every goroutine of it.
func withHostPID(ctx context.Context, rdb *redis.Client, key string) {
	host, _ := os.Hostname()
	val := fmt.Sprintf("%s:%d", host, os.Getpid())
	if rdb.SetNX(ctx, key, val, ttl).Val() { // want `lock key is acquired with val \(one per process, shared by its goroutines\) and released`
		defer rdb.Del(ctx, key)
	}
}

// A variable assigned again is not followed.
func reassigned(ctx context.Context, rdb *redis.Client, key string) {
	v := "1"
	v = newToken()
	if rdb.SetNX(ctx, key, v, ttl).Val() {
		defer rdb.Del(ctx, key)
	}
}

// No TTL, then EXPIRE (LV101's finding): giving the lock its TTL is not a
// renewal, and nothing releases it.
func firstTTL(ctx context.Context, rdb *redis.Client) {
	if rdb.SetNX(ctx, "lock:once", "1", 0).Val() {
		rdb.Expire(ctx, "lock:once", ttl)
	}
}

// A marker with no TTL cannot pass to another holder: deleting it needs no
// owner check.
func once(ctx context.Context, rdb *redis.Client, id string) {
	if rdb.SetNX(ctx, "done:"+id, "1", 0).Val() {
		defer rdb.Del(ctx, "done:"+id)
	}
}

// An idempotency key, deleted only on failure so the request can be
// retried; the same with a deferred cleanup.
func handle(ctx context.Context, rdb *redis.Client, reqID string, process func() error) error {
	key := "idem:" + reqID
	if !rdb.SetNX(ctx, key, 1, 24*time.Hour).Val() {
		return nil
	}
	if err := process(); err != nil {
		rdb.Del(ctx, key)
		return err
	}
	return nil
}

func handleDeferred(ctx context.Context, rdb *redis.Client, reqID string, process func() error) (err error) {
	key := "idem:" + reqID
	if !rdb.SetNX(ctx, key, "1", 24*time.Hour).Val() {
		return nil
	}
	defer func() {
		if err != nil {
			rdb.Del(ctx, key)
		}
	}()
	return process()
}
