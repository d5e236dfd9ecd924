package v9

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

var renewScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

func unlock(ctx context.Context, rdb *redis.Client, key, token string) {
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

func rebuild(ctx context.Context) error { return ctx.Err() }

// Config is a service's configuration.
type Config struct {
	LockTTL     time.Duration
	JobTimeout  time.Duration
	LockSeconds int
}

// The post-mortem's shape: a 30 s lock, and the work given 2 minutes.
func report(ctx context.Context, rdb *redis.Client, token string) error {
	ok, err := rdb.SetNX(ctx, "lock:report", token, 30*time.Second).Result()
	if err != nil || !ok {
		return err
	}
	defer unlock(ctx, rdb, "lock:report", token)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // want `the work under lock "lock:report" gets 2m0s \(context\.WithTimeout\), not less than its TTL 30s: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return rebuild(ctx)
}

// Sleeping a minute under a 30 s lock, released by a DEL after.
func throttle(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return errBusy
	}
	time.Sleep(time.Minute) // want `time.Sleep\(1m0s\) while holding lock key, whose TTL is 30s`
	rdb.Del(ctx, key)
	return nil
}

// The whole request gets 5 minutes, made before the lock is taken.
func handle(ctx context.Context, rdb *redis.Client, key, token string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute) // want `the context given 5m0s here \(context\.WithTimeout\) before the lock is taken carries the work under lock key, whose TTL is 1m0s: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return rebuild(ctx)
}

// The same configuration field for both: the work may take exactly as
// long as the lock lives.
func (c *Config) run(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, c.LockTTL).Val() {
		return errBusy
	}
	defer unlock(ctx, rdb, key, token)
	ctx, cancel := context.WithTimeout(ctx, c.LockTTL) // want `the work under lock key gets c\.LockTTL \(context\.WithTimeout\), not less than its TTL c\.LockTTL: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return rebuild(ctx)
}

// A field in seconds, the work given 5 s more.
func (c *Config) runSeconds(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, time.Duration(c.LockSeconds)*time.Second).Val() {
		return errBusy
	}
	defer unlock(ctx, rdb, key, token)
	ctx, cancel := context.WithTimeout(ctx, time.Duration(c.LockSeconds)*time.Second+5*time.Second) // want `the work under lock key gets time\.Duration\(c\.LockSeconds\) \* time\.Second \+ 5 \* time\.Second \(context\.WithTimeout\), not less than its TTL time\.Duration\(c\.LockSeconds\) \* time\.Second: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return rebuild(ctx)
}

// Waiting for the result with time.After, SetArgs acquire.
func wait(ctx context.Context, rdb *redis.Client, key, token string, done <-chan error) error {
	if err := rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: 45 * time.Second}).Err(); err != nil {
		return err
	}
	defer rdb.Del(ctx, key)
	select {
	case err := <-done:
		return err
	case <-time.After(3 * time.Minute): // want `waits up to 3m0s \(After\) while holding lock key, whose TTL is 45s`
		return context.DeadlineExceeded
	}
}

// A deadline one hour away.
func deadline(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 10*time.Minute).Val() {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	ctx, cancel := context.WithDeadline(ctx, time.Now().Add(time.Hour)) // want `gets 1h0m0s \(context.WithDeadline\)`
	defer cancel()
	return rebuild(ctx)
}

// The TTL and the sleep from one local variable.
func local(ctx context.Context, rdb *redis.Client, key, token string) {
	ttl := 10 * time.Second
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	time.Sleep(ttl) // want `time.Sleep\(10s\) while holding lock key, whose TTL is 10s`
	unlock(ctx, rdb, key, token)
}

func process(ctx context.Context, job string, timeout time.Duration) error { return ctx.Err() }

// A timeout passed to the guarded call.
func batch(ctx context.Context, rdb *redis.Client, token string) error {
	if !rdb.SetNX(ctx, "lock:batch", token, time.Minute).Val() {
		return errBusy
	}
	defer unlock(ctx, rdb, "lock:batch", token)
	return process(ctx, "batch", 5*time.Minute) // want `5m0s is passed as the timeout of process under lock "lock:batch", whose TTL is 1m0s`
}

// An HTTP client whose requests may take 2 minutes, under a 30 s lock.
func fetch(ctx context.Context, rdb *redis.Client, key, token string) (*http.Response, error) {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return nil, errBusy
	}
	defer rdb.Del(ctx, key)
	c := &http.Client{Timeout: 2 * time.Minute} // want `a Timeout of 2m0s is set under lock key, whose TTL is 30s`
	return c.Get("http://example.com/")
}

// --- silent ---

// The lock is renewed while the work runs.
func renewed(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return errBusy
	}
	defer unlock(ctx, rdb, key, token)
	done := make(chan struct{})
	defer close(done)
	go func() {
		t := time.NewTicker(10 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				renewScript.Run(ctx, rdb, []string{key}, token, 30000)
			}
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return rebuild(ctx)
}

func extendLock(ctx context.Context, key, token string) func() { return func() {} }

// Renewed by a helper of another package, named for it.
func renewedByHelper(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return errBusy
	}
	defer unlock(ctx, rdb, key, token)
	stop := extendLock(ctx, key, token)
	defer stop()
	time.Sleep(time.Minute)
	return nil
}

// The work's timeout is below the TTL.
func shorter(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return errBusy
	}
	defer unlock(ctx, rdb, key, token)
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	return rebuild(ctx)
}

// The deadline is the caller's.
func callers(ctx context.Context, rdb *redis.Client, key, token string, timeout time.Duration) error {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return errBusy
	}
	defer unlock(ctx, rdb, key, token)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return rebuild(ctx)
}

// Two locks: the long wait is under the second, whose TTL is longer.
func twoLocks(ctx context.Context, rdb *redis.Client, token string) error {
	if !rdb.SetNX(ctx, "lock:a", token, 30*time.Second).Val() {
		return errBusy
	}
	rdb.Del(ctx, "lock:a")
	if !rdb.SetNX(ctx, "lock:b", token, 10*time.Minute).Val() {
		return errBusy
	}
	defer rdb.Del(ctx, "lock:b")
	time.Sleep(2 * time.Minute)
	return nil
}

// A retry loop waits a whole TTL for a busy lock: not under the lock.
func retry(ctx context.Context, rdb *redis.Client, key, token string) error {
	for {
		ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()
		if err != nil {
			return err
		}
		if ok {
			break
		}
		time.Sleep(30 * time.Second)
	}
	err := rebuild(ctx)
	unlock(ctx, rdb, key, token)
	return err
}

// A busy lock makes the caller wait before it returns.
func backoff(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		time.Sleep(time.Minute)
		return errBusy
	}
	defer unlock(ctx, rdb, key, token)
	return rebuild(ctx)
}

// Different configuration fields, or a field against a constant: the
// values are not known.
func (c *Config) fields(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, c.LockTTL).Val() {
		return errBusy
	}
	defer unlock(ctx, rdb, key, token)
	ctx, cancel := context.WithTimeout(ctx, c.JobTimeout)
	defer cancel()
	time.Sleep(time.Hour)
	return rebuild(ctx)
}

// Work handed to a goroutine: where it runs is not followed.
func async(ctx context.Context, rdb *redis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return
	}
	defer unlock(ctx, rdb, key, token)
	go func() {
		time.Sleep(time.Minute)
	}()
}

// The request's context is shorter than the lock: the work's 2 minutes
// end at the request's 20 s.
func parent(ctx context.Context, rdb *redis.Client, key, token string) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return errBusy
	}
	defer unlock(ctx, rdb, key, token)
	work, stop := context.WithTimeout(ctx, 2*time.Minute)
	defer stop()
	return rebuild(work)
}

// The long wait comes after the release.
func after(ctx context.Context, rdb *redis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return
	}
	_ = rebuild(ctx)
	unlock(ctx, rdb, key, token)
	time.Sleep(time.Minute)
}

// A TTL the caller gives.
func given(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	defer unlock(ctx, rdb, key, token)
	time.Sleep(time.Minute)
}

// A lock that is never released here: where its region ends is unknown.
func noRelease(ctx context.Context, rdb *redis.Client, key, token string) bool {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return false
	}
	time.Sleep(time.Minute)
	return true
}

// A context that bounds only the release.
func releaseCtx(ctx context.Context, rdb *redis.Client, key, token string) error {
	if !rdb.SetNX(ctx, key, token, 30*time.Second).Val() {
		return errBusy
	}
	err := rebuild(ctx)
	rctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rdb.Del(rctx, key)
	return err
}
