// LV106 in styles the per-client cases do not use: named constants,
// acquire results kept in a command or read in a switch, the work inside
// the if that took the lock, a lock type whose fields give both numbers,
// timeouts of blocking commands, and mixed units.
package styles

import (
	"context"
	"errors"
	"time"

	redisv8 "github.com/go-redis/redis/v8"
	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var errBusy = errors.New("busy")

var errSlow = errors.New("slow")

const (
	lockTTL    = 30 * time.Second
	jobTimeout = 2 * time.Minute
	pollEvery  = 5 * time.Second
	retries    = 90
)

func work(ctx context.Context) error { return ctx.Err() }

// Named constants; the acquire's command kept and read later; the wait in
// a select inside a loop.
func consts(ctx context.Context, rdb *redis.Client, key, token string, done <-chan struct{}) error {
	cmd := rdb.SetNX(ctx, key, token, lockTTL)
	if !cmd.Val() {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	for {
		select {
		case <-done:
			return nil
		case <-time.After(jobTimeout): // want `waits up to 2m0s \(After\) while holding lock key, whose TTL is 30s`
			return errSlow
		}
	}
}

// The outcome read in a switch, and the work's context made with a cause.
func switched(ctx context.Context, rdb *redis.Client, key, token string) error {
	switch ok, err := rdb.SetNX(ctx, key, token, lockTTL).Result(); {
	case err != nil:
		return err
	case !ok:
		return errBusy
	}
	defer rdb.Del(ctx, key)
	ctx, cancel := context.WithTimeoutCause(ctx, 2*lockTTL, errSlow) // want `the work under lock key gets 1m0s \(context\.WithTimeoutCause\), not less than its TTL 30s: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return work(ctx)
}

// The work runs inside the if that took the lock.
func inside(ctx context.Context, rdb *redis.Client, key, token string) {
	if ok, _ := rdb.SetNX(ctx, key, token, time.Minute).Result(); ok {
		time.Sleep(90 * time.Second) // want `time.Sleep\(1m30s\) while holding lock key, whose TTL is 1m0s`
		rdb.Del(ctx, key)
	}
}

// A deadline computed first, then used; mixed units that are equal.
func deadlineVar(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 30000*time.Millisecond).Val() {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	dl := time.Now().Add(30 * time.Second)
	ctx, cancel := context.WithDeadline(ctx, dl) // want `the work under lock key gets 30s \(context\.WithDeadline\), not less than its TTL 30s: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return work(ctx)
}

// Locker keeps a lock's settings in its fields.
type Locker struct {
	rdb   *redis.Client
	key   string
	token string
	ttl   time.Duration
}

func NewLocker(rdb *redis.Client, key, token string, ttl time.Duration) *Locker {
	return &Locker{rdb: rdb, key: key, token: token, ttl: ttl}
}

// The lock type's own TTL field bounds the work, and the work gets it
// twice over.
func (l *Locker) Run(ctx context.Context, fn func(context.Context) error) error {
	if !l.rdb.SetNX(ctx, l.key, l.token, l.ttl).Val() {
		return errBusy
	}
	defer l.rdb.Del(ctx, l.key)
	ctx, cancel := context.WithTimeout(ctx, 2*l.ttl) // want `the work under lock l\.key gets 2 \* l\.ttl \(context\.WithTimeout\), not less than its TTL l\.ttl: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return fn(ctx)
}

// A blocking pop waits 2 minutes for a job under a 30 s lock (go-redis v8).
func pop(ctx context.Context, rdb *redisv8.Client, key, token string) ([]string, error) {
	if !rdb.SetNX(ctx, key, token, lockTTL).Val() {
		return nil, errBusy
	}
	defer rdb.Del(ctx, key)
	return rdb.BLPop(ctx, jobTimeout, "jobs").Result() // want `2m0s is passed as the timeout of BLPop under lock key, whose TTL is 30s`
}

// redigo: options in the other order, and a command with its own timeout.
func redigoTimeout(c redigo.Conn, key, token string) (any, error) {
	if _, err := redigo.String(c.Do("SET", key, token, "EX", 30, "NX")); err != nil {
		return nil, err
	}
	defer c.Do("DEL", key)
	return redigo.DoWithTimeout(c, time.Minute, "BLPOP", "jobs", 0) // want `1m0s is passed as the timeout of DoWithTimeout under lock key, whose TTL is 30s`
}

// rueidis: a Duration PX, and a sleep of a constant count of seconds.
func rueidisCount(ctx context.Context, client rueidis.Client, key, token string) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Px(time.Minute).Build()).Error(); err != nil {
		return err
	}
	defer client.Do(ctx, client.B().Del().Key(key).Build())
	time.Sleep(time.Duration(retries) * time.Second) // want `time.Sleep\(1m30s\) while holding lock key, whose TTL is 1m0s`
	return nil
}

// --- silent ---

// A poll every 5 s under a 30 s lock: each wait is short.
func poll(ctx context.Context, rdb *redis.Client, key, token string, ready func() bool) {
	if !rdb.SetNX(ctx, key, token, lockTTL).Val() {
		return
	}
	defer rdb.Del(ctx, key)
	for !ready() {
		time.Sleep(pollEvery)
	}
}

// Mixed units, shorter: 90 s under a 2-minute lock.
func mixedShorter(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 2*time.Minute).Val() {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	return work(ctx)
}

// Options passed in: the timeout is the caller's, the TTL a constant.
type Options struct{ Timeout time.Duration }

func optioned(ctx context.Context, rdb *redis.Client, key, token string, o Options) error {
	if !rdb.SetNX(ctx, key, token, lockTTL).Val() {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	return work(ctx)
}

// Nested locks: the long sleep comes after the short lock is released,
// under the long one.
func nested(ctx context.Context, rdb *redis.Client, token string) error {
	if !rdb.SetNX(ctx, "lock:outer", token, 10*time.Minute).Val() {
		return errBusy
	}
	defer rdb.Del(ctx, "lock:outer")
	if !rdb.SetNX(ctx, "lock:inner", token, 10*time.Second).Val() {
		return errBusy
	}
	err := work(ctx)
	rdb.Del(ctx, "lock:inner")
	time.Sleep(time.Minute)
	return err
}

// Lease is another lock type, which renews its lock: any of its
// methods may hold the lock as long as it likes.
type Lease struct {
	rdb        *redis.Client
	key, token string
}

// Renewed with PEXPIRE on a ticker in a for-select, from a method.
func (l *Lease) renewing(ctx context.Context, stop <-chan struct{}) {
	if !l.rdb.SetNX(ctx, l.key, l.token, lockTTL).Val() {
		return
	}
	defer l.rdb.Del(ctx, l.key)
	go func() {
		t := time.NewTicker(lockTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				l.rdb.PExpire(ctx, l.key, lockTTL)
			}
		}
	}()
	time.Sleep(jobTimeout)
}

// A context made from the caller's deadline, shortened.
func callersDeadline(ctx context.Context, rdb *redis.Client, key, token string, until time.Time) error {
	if !rdb.SetNX(ctx, key, token, lockTTL).Val() {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	ctx, cancel := context.WithDeadline(ctx, until)
	defer cancel()
	return work(ctx)
}

// A deadline computed before the lock is taken: the work has less than
// 30 s left once it holds the lock.
func deadlineBefore(ctx context.Context, rdb *redis.Client, key, token string) error {
	dl := time.Now().Add(30 * time.Second)
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	ctx, cancel := context.WithDeadline(ctx, dl)
	defer cancel()
	return work(ctx)
}
