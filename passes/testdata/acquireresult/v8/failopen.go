package v8

import (
	"context"
	"log"
	"time"

	"github.com/go-redis/redis/v8"
)

// Busy is an error, a failure is logged and returns nil: fail-open.
func (l *Lock) LockOrErr(ctx context.Context) error {
	ok, err := l.rdb.SetNX(ctx, l.key, "t", time.Minute).Result() // want `when SetNX fails, this path returns a nil error, read as acquired: in an outage every caller takes the lock; return the error`
	if err != nil {
		log.Print(err)
		return nil
	}
	if !ok {
		return errBusy
	}
	return nil
}

// A failure logged, then the work and a deferred release.
func fallThrough(ctx context.Context, rdb *redis.Client, key string) error {
	ok, err := rdb.SetNX(ctx, key, "t", time.Minute).Result() // want `when SetNX fails, this path still runs the work and the release without the lock; stop on the error`
	if err != nil {
		log.Print(err)
	} else if !ok {
		return errBusy
	}
	defer rdb.Del(ctx, key)
	return nil
}

// --- silent ---

// The error returned: fail-closed.
func (l *Lock) LockStrict(ctx context.Context) error {
	ok, err := l.rdb.SetNX(ctx, l.key, "t", time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}
