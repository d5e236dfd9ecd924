// Package sites holds lock sites of every shape the inventory describes,
// and code that is not a lock.
package sites

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

const jobTTL = 30 * time.Second

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)
var extend = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)
var wipe = redis.NewScript(`return redis.call("del", KEYS[1])`)

func jobKey(name string) string { return "lock:job:" + name }

// Constant key, constant TTL, owner-checked release in the same function.
func Const(ctx context.Context, rdb *redis.Client, token string) {
	if rdb.SetNX(ctx, "lock:report", token, jobTTL).Val() {
		defer unlock.Run(ctx, rdb, []string{"lock:report"}, token)
	}
}

// A helper builds the key; the TTL is set by a separate EXPIRE; the
// release is a bare DEL in another function with the same key pattern.
func Helper(ctx context.Context, rdb *redis.Client, job, token string) bool {
	key := jobKey(job)
	ok := rdb.SetNX(ctx, key, token, 0).Val()
	if ok {
		rdb.Expire(ctx, key, time.Minute)
	}
	return ok
}

func HelperDone(ctx context.Context, rdb *redis.Client, job string) {
	rdb.Del(ctx, jobKey(job))
}

// fmt.Sprintf with %s and %d; no TTL at all; DELEX release.
func Sprintf(ctx context.Context, rdb *redis.Client, tenant string, id int, token string) {
	key := fmt.Sprintf("order:%s:%d:mutex", tenant, id)
	if rdb.SetNX(ctx, key, token, 0).Val() {
		defer rdb.DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ", MatchValue: token})
	}
}

// SET NX with a TTL from SetArgs, a key with a non-string part, renewed by
// a bare EXPIRE and by the owner-checked script, released by a script
// that does not compare.
func Renewed(ctx context.Context, rdb *redis.Client, shard int, token string) {
	key := "lock:shard:" + strconv.Itoa(shard) + ":owner"
	if rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: 10 * time.Second}).Err() != nil {
		return
	}
	for range 3 {
		rdb.Expire(ctx, key, 20*time.Second)
		extend.Run(ctx, rdb, []string{key}, token, 5000)
	}
	wipe.Run(ctx, rdb, []string{key}, token)
}

// A lock struct: the key lives in a field set by a constructor.
type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func NewMutex(rdb *redis.Client, name string) *Mutex {
	return &Mutex{rdb: rdb, key: "mutex:" + name}
}

func (m *Mutex) Lock(ctx context.Context, ttl time.Duration) bool {
	return m.rdb.SetNX(ctx, m.key, m.token, ttl).Val()
}

func (m *Mutex) Unlock(ctx context.Context) {
	m.rdb.Del(ctx, m.key)
}

func (m *Mutex) Pause(ctx context.Context) {
	m.rdb.Expire(ctx, m.key, 0)
}

// A transaction: SETNX and EXPIRE queued together.
func Tx(ctx context.Context, rdb *redis.Client, id, token string) {
	key := "lock:tx:" + id
	rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, key, token, 0)
		p.Expire(ctx, key, time.Minute)
		return nil
	})
}

// The key is a parameter; an in-package caller gives its pattern, and the
// TTL parameter is a constant at every call.
func take(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) bool {
	return rdb.SetNX(ctx, key, token, ttl).Val()
}

func TakeInvoice(ctx context.Context, rdb *redis.Client, id, token string) bool {
	return take(ctx, rdb, "lock:invoice:"+id, token, 2*time.Minute)
}

// The key is a parameter nobody in the package passes: pattern unknown.
func Anything(ctx context.Context, rdb *redis.Client, key string) bool {
	return rdb.SetNX(ctx, key, "x", time.Second).Val()
}

// Not locks: no site.
func Cache(ctx context.Context, rdb *redis.Client, id string) {
	rdb.Set(ctx, "cache:"+id, "v", time.Minute)
	rdb.Get(ctx, "cache:"+id)
	rdb.Del(ctx, "cache:"+id)
	rdb.SetArgs(ctx, "cache:x:"+id, "v", redis.SetArgs{Mode: "XX", TTL: time.Minute})
	rdb.GetSet(ctx, "counter:"+id, 0)
	rdb.DelExArgs(ctx, "cache:y:"+id, redis.DelExArgs{Mode: "IFNE", MatchValue: "v"})
}
