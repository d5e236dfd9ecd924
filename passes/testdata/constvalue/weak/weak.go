// Package weak has lock values that are no literal but that every holder
// (or every goroutine of a process) shares: LV204 names why each is
// shared. Values drawn for each acquisition stay silent.
package weak

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// A Unix time in seconds: two holders that lock in the same second write
// the same value.
func withSeconds(ctx context.Context, rdb *redis.Client, id string) (int64, bool) {
	ts := time.Now().Unix()
	return ts, rdb.SetNX(ctx, "lock:seconds:"+id, ts, ttl).Val() // want `lock "lock:seconds:" \+ id is acquired with ts \(seconds: the same for all who lock in that second\) and released`
}

func releaseSeconds(ctx context.Context, rdb *redis.Client, id string, ts int64) {
	unlock.Run(ctx, rdb, []string{"lock:seconds:" + id}, ts)
}

// Formatted, it is still one value a second.
func withSecondsText(ctx context.Context, rdb *redis.Client, id int) {
	key := "lock:report:" + strconv.Itoa(id)
	if rdb.SetNX(ctx, key, strconv.FormatInt(time.Now().Unix(), 10), ttl).Val() { // want `acquired with strconv.FormatInt\(time.Now\(\).Unix\(\), 10\) \(seconds: the same for all who lock in that second\) and released`
		defer rdb.Del(ctx, key)
	}
}

// The host name: every process on the host, and every goroutine of each.
func withHost(ctx context.Context, rdb *redis.Client) bool {
	h, _ := os.Hostname()
	return rdb.SetNX(ctx, "lock:compact", h, ttl).Val() // want `lock "lock:compact" is acquired with the host name h \(shared by its processes\) and released`
}

func releaseHost(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, "lock:compact")
}

// The host name with the process ID: one per process.
func withHostPID(ctx context.Context, rdb *redis.Client, key string) {
	h, _ := os.Hostname()
	owner := fmt.Sprintf("%s-%d", h, os.Getpid())
	if rdb.SetNX(ctx, key, owner, ttl).Val() { // want `acquired with owner \(one per process, shared by its goroutines\) and released`
		defer unlock.Run(ctx, rdb, []string{key}, owner)
	}
}

func newToken() string { return rand.Text() }

// A random value drawn once for the process, at start-up.
var instance = newToken()

func withInstance(ctx context.Context, rdb *redis.Client, id int) bool {
	return rdb.SetNX(ctx, fmt.Sprintf("lock:sync:%d", id), instance, ttl).Val() // want `acquired with instance \(set once per process, shared by its goroutines\) and released`
}

func releaseInstance(ctx context.Context, rdb *redis.Client, id int) {
	unlock.Run(ctx, rdb, []string{fmt.Sprintf("lock:sync:%d", id)}, instance) // want `the owner check of lock fmt.Sprintf\("lock:sync:%d", id\) compares it with instance`
}

// The same, set by an init function.
var nodeID string

func init() {
	nodeID = "node-" + newToken()
}

func withNodeID(ctx context.Context, rdb *redis.Client, key string) {
	if !rdb.SetNX(ctx, key, nodeID, ttl).Val() { // want `acquired with nodeID \(set once per process, shared by its goroutines\) and renewed`
		return
	}
	rdb.Expire(ctx, key, ttl)
}

// An integer constant, and a compare-and-delete in another function that
// compares with the same constant: the release looks safe where it is,
// and compares equal for every holder.
type RedisLock struct{ rdb *redis.Client }

func (r *RedisLock) name(n string) string { return "im:lock:" + n }

func (r *RedisLock) Lock(ctx context.Context, n string, expire int) bool {
	return r.rdb.SetNX(ctx, r.name(n), 1, time.Duration(expire)*time.Second).Val() // want `lock r.name\(n\) is acquired with the constant 1 and released`
}

func (r *RedisLock) UnLock(ctx context.Context, n string) bool {
	script := `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("DEL", KEYS[1])
	else
		return false
	end`
	return r.rdb.Eval(ctx, script, []string{r.name(n)}, 1).Err() == nil // want `the owner check of lock r.name\(n\) compares it with 1, a value every caller passes, so it releases other holders' locks`
}

// Silent: a host name written as a heartbeat, with a TTL, never compared.
func heartbeat(ctx context.Context, rdb *redis.Client) {
	h, _ := os.Hostname()
	rdb.Set(ctx, "heartbeat:"+h, h, ttl)
	rdb.SetNX(ctx, "worker:"+h, h, ttl)
}

// Silent: a session written with Set.
func saveSession(ctx context.Context, rdb *redis.Client, id string, user int) {
	rdb.Set(ctx, "session:"+id, user, time.Hour)
	rdb.Del(ctx, "session:"+id)
}

// Silent: a struct that caches, with key and TTL fields, and no NX claim.
type Cache struct {
	rdb *redis.Client
	key string
	ttl time.Duration
}

func (c *Cache) Put(ctx context.Context)  { c.rdb.Set(ctx, c.key, instance, c.ttl) }
func (c *Cache) Drop(ctx context.Context) { c.rdb.Del(ctx, c.key) }

// Silent: random tokens drawn for each acquisition and kept in a field.
type Lease struct {
	rdb   *redis.Client
	key   string
	token string
}

func (l *Lease) Acquire(ctx context.Context) bool {
	l.token = rand.Text()
	return l.rdb.SetNX(ctx, l.key, l.token, ttl).Val()
}

func (l *Lease) Release(ctx context.Context) {
	unlock.Run(ctx, l.rdb, []string{l.key}, l.token)
}

// Silent: a package-level variable written for each acquisition.
var current string

func withCurrent(ctx context.Context, rdb *redis.Client, key string) {
	current = newToken()
	if rdb.SetNX(ctx, key, current, ttl).Val() {
		defer unlock.Run(ctx, rdb, []string{key}, current)
	}
}

// Silent: the host with a nanosecond time, and a host name replaced on
// error (not one definition).
func withHostNanos(ctx context.Context, rdb *redis.Client, key string) {
	h, err := os.Hostname()
	if err != nil {
		h = "unknown"
	}
	v := fmt.Sprintf("%s-%d", h, time.Now().UnixNano())
	if rdb.SetNX(ctx, key, v, ttl).Val() {
		defer unlock.Run(ctx, rdb, []string{key}, v)
	}
	if rdb.SetNX(ctx, key+":h", h, ttl).Val() {
		defer rdb.Del(ctx, key+":h")
	}
}
