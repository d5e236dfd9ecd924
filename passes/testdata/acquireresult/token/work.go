package token

import (
	"context"
	"log"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// The error is logged and the code falls through into the work it was
// handed: in an outage every caller runs it.
func RunExclusive(ctx context.Context, rdb *redis.Client, name string, fn func(context.Context) error) error {
	ok, err := rdb.SetNX(ctx, "run:"+name, uuid.NewString(), ttl).Result() // want `when SetNX fails, this path still runs the work \(fn\) without the lock; stop on the error`
	if err != nil {
		log.Print(err)
	} else if !ok {
		return nil
	}
	return fn(ctx)
}

// Busy is logged, then the work runs anyway.
func RunLogged(ctx context.Context, rdb *redis.Client, name string, job func()) {
	ok, err := rdb.SetNX(ctx, "runl:"+name, uuid.NewString(), ttl).Result() // want `when SetNX finds the lock busy, this path still runs the work \(job\); stop when the key was not set`
	if err != nil {
		return
	}
	if !ok {
		log.Print("busy")
	}
	job()
}

// --- silent ---

// Correct: the work runs only when the key was set.
func RunStrict(ctx context.Context, rdb *redis.Client, name string, fn func(context.Context) error) error {
	ok, err := rdb.SetNX(ctx, "runs:"+name, uuid.NewString(), ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	return fn(ctx)
}

// A handler of the failure is no work: it runs only then.
func RunOrReport(ctx context.Context, rdb *redis.Client, name string, fn func(), onErr func(context.Context) error) {
	ok, err := rdb.SetNX(ctx, "runr:"+name, uuid.NewString(), ttl).Result()
	if err != nil {
		_ = onErr(ctx)
		return
	}
	if ok {
		fn()
	}
}

// A logger called on every path is no work either.
func RunTraced(ctx context.Context, rdb *redis.Client, name string, logf func(string, ...any), fn func()) {
	ok, err := rdb.SetNX(ctx, "runt:"+name, uuid.NewString(), ttl).Result()
	logf("acquire %s: %v %v", name, ok, err)
	if err != nil || !ok {
		return
	}
	fn()
}

// Failing open on purpose, said so.
func RunAvailable(ctx context.Context, rdb *redis.Client, name string, fn func()) {
	ok, err := rdb.SetNX(ctx, "runa:"+name, uuid.NewString(), ttl).Result()
	if err == nil && !ok {
		return
	}
	// Fail open: the job is idempotent, running it twice is harmless.
	fn()
}

// A marker (its value is no token, nothing releases it) set before the
// work, whatever came of it: not a lock.
func RunOnceMarked(ctx context.Context, rdb *redis.Client, id string, fn func()) {
	ok, err := rdb.SetNX(ctx, "seen:"+id, 1, ttl).Result()
	if err == nil && !ok {
		return
	}
	fn()
}
