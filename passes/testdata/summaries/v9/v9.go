// Summaries of lock helpers (go-redis v9): what each function does to a
// lock with its parameters, and the ops its calls become.
package v9

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func Lock(ctx context.Context, key string) (bool, error) { // want `summary Lock: acquire key=1 \$ value="1" ttl=10 \* time.Second returns lock paired at v9/v9.go:18`
	return rdb.SetNX(ctx, key, "1", 10*time.Second).Result() // want `go-redis/v9 acquire SetNX`
}

func Unlock(ctx context.Context, key string) error { // want `summary Unlock: release bare key=1 \$ paired at v9/v9.go:22`
	return rdb.Del(ctx, key).Err() // want `go-redis/v9 delete Del`
}

func LockOrder(ctx context.Context, id, token string, ttl time.Duration) error { // want `summary LockOrder: acquire key=1 \("order:"\+\$\) value=2 ttl=3/duration returns lock paired at v9/v9.go:26`
	ok, err := rdb.SetNX(ctx, "order:"+id, token, ttl).Result() // want `go-redis/v9 acquire SetNX`
	if err == nil && !ok {
		err = fmt.Errorf("busy")
	}
	return err
}

func UnlockOrder(ctx context.Context, id, token string) error { // want `summary UnlockOrder: saferelease owner key=1 \("order:"\+\$\) value=2 paired at v9/v9.go:34`
	return unlockScript.Run(ctx, rdb, []string{"order:" + id}, token).Err() // want `go-redis/v9 script Run`
}

func Refresh(ctx context.Context, id string, ttl time.Duration) { // want `summary Refresh: expire bare key=1 \("order:"\+\$\) ttl=2/duration at v9/v9.go:38`
	rdb.Expire(ctx, "order:"+id, ttl) // want `go-redis/v9 expire Expire`
}

func UnlockJob(ctx context.Context, job string) { // want `summary UnlockJob: release checkthendel key=1 fmt.Sprintf\("job:%s",\$\) at v9/v9.go:43`
	if rdb.Get(ctx, fmt.Sprintf("job:%s", job)).Val() == "me" { // want `go-redis/v9 get Get`
		rdb.Del(ctx, fmt.Sprintf("job:%s", job)) // want `go-redis/v9 delete Del`
	}
}

// No TTL: SETNX alone.
func Mark(ctx context.Context, key string) bool { // want `summary Mark: acquire key=1 \$ value="x" nottl returns at v9/v9.go:49`
	return rdb.SetNX(ctx, key, "x", 0).Val() // want `go-redis/v9 acquire SetNX`
}

// One level up: a helper of a helper, the key prefixed again.
func LockUser(ctx context.Context, user string) (bool, error) { // want `summary LockUser: acquire key=1 \("user:"\+\$\) value="1" ttl=10 \* time.Second returns lock paired via Lock depth=1 at v9/v9.go:18`
	return Lock(ctx, "user:"+user) // want `inferred acquire Lock key="user:" \+ user`
}

// Recursion terminates.
func Retry(ctx context.Context, key string, n int) bool { // want `summary Retry: acquire key=1 \$ value="1" ttl=time.Second returns at v9/v9.go:60`
	if n == 0 {
		return rdb.SetNX(ctx, key, "1", time.Second).Val() // want `go-redis/v9 acquire SetNX`
	}
	return Retry(ctx, key, n-1) // want `inferred acquire Retry key=key`
}

func even(ctx context.Context, key string, n int) bool {
	if n == 0 {
		return false
	}
	return odd(ctx, key, n-1)
}

func odd(ctx context.Context, key string, n int) bool {
	return even(ctx, key, n-1)
}

// Generic.
type Store[T any] struct{ c *redis.Client }

func (s *Store[T]) TryLock(ctx context.Context, key string, ttl time.Duration) bool { // want `summary TryLock: acquire key=1 \$ value="1" ttl=2/duration returns lock paired at v9/v9.go:80`
	return s.c.SetNX(ctx, key, "1", ttl).Val() // want `go-redis/v9 acquire SetNX`
}

// WithLockFor acquires and releases, with its caller's TTL: a scoped
// summary, for what a call site gives it (the TTL's unit).
func WithLockFor(ctx context.Context, key string, ttl time.Duration, fn func()) error { // want `summary WithLockFor: acquire key=1 \$ value="1" ttl=2/duration lock paired scoped at v9/v9.go:86`
	if !rdb.SetNX(ctx, key, "1", ttl).Val() { // want `go-redis/v9 acquire SetNX`
		return nil
	}
	defer rdb.Del(ctx, key) // want `go-redis/v9 delete Del`
	fn()
	return nil
}

// --- no summary ---

// WithLock acquires and releases with its own TTL: everything is inline,
// a call site has nothing to give it.
func WithLock(ctx context.Context, key string, fn func()) error {
	if !rdb.SetNX(ctx, key, "1", time.Minute).Val() { // want `go-redis/v9 acquire SetNX`
		return nil
	}
	defer rdb.Del(ctx, key) // want `go-redis/v9 delete Del`
	fn()
	return nil
}

// A cache: two operations.
func GetOrSet(ctx context.Context, key string) string {
	v := rdb.Get(ctx, key).Val() // want `go-redis/v9 get Get`
	if v == "" {
		rdb.Set(ctx, key, "x", time.Hour) // want `go-redis/v9 write Set`
	}
	return v
}

// The key from two parameters.
func LockPair(ctx context.Context, a, b string) bool {
	return rdb.SetNX(ctx, a+b, "1", time.Minute).Val() // want `go-redis/v9 acquire SetNX`
}

func use(ctx context.Context, id string) {
	Lock(ctx, id)                 // want `inferred acquire Lock key=id`
	defer Unlock(ctx, id)         // want `inferred delete Unlock key=id`
	LockOrder(ctx, id, "t", 30)   // want `inferred acquire LockOrder key=id value="t" ttl=30/duration`
	UnlockOrder(ctx, id, "t")     // want `inferred script UnlockOrder key=id args=1 src=if`
	Refresh(ctx, id, time.Minute) // want `inferred expire Refresh key=id ttl=time.Minute/duration`
	s := &Store[int]{}
	s.TryLock(ctx, id, time.Second) // want `inferred acquire TryLock key=id ttl=time.Second/duration`
	f := Lock                       // a function value: no op
	f(ctx, id)
	_ = even(ctx, id, 3)
}
