package v9

import (
	"context"
	"log"

	"github.com/redis/go-redis/v9"
)

// The acquire's error path of a helper that reports busy as an error
// returns nil: the caller goes on as if it held the lock.
func (m *Mutex) LockOrErr(ctx context.Context) error {
	ok, err := m.rdb.SetNX(ctx, m.key, m.token, ttl).Result() // want `when SetNX fails, this path returns a nil error, read as acquired: in an outage every caller takes the lock; return the error`
	if err != nil {
		log.Print(err)
		return nil
	}
	if !ok {
		return errBusy
	}
	return nil
}

// The error logged, then the code falls through into the work, with a
// release deferred after the last test of the reply.
func fallThrough(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result() // want `when SetNX fails, this path still runs the work and the release without the lock; stop on the error`
	if err != nil {
		log.Print(err)
	} else if !ok {
		return errBusy
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return work(ctx)
}

// The same, released by a helper after the work.
func fallThroughHelper(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result() // want `when SetNX fails, this path still runs the work and the release without the lock; stop on the error`
	if err != nil {
		log.Print(err)
	}
	if err == nil && !ok {
		return errBusy
	}
	err = work(ctx)
	releaseLock(ctx, rdb, key, token)
	return err
}

func releaseLock(ctx context.Context, rdb *redis.Client, key, token string) {
	unlockScript.Run(ctx, rdb, []string{key}, token)
}

// --- silent ---

// The error path returns nil, but busy returns nil too: the function
// does not report whether it holds the lock by its error.
func (m *Mutex) LockQuiet(ctx context.Context) error {
	ok, err := m.rdb.SetNX(ctx, m.key, m.token, ttl).Result()
	if err != nil {
		log.Print(err)
		return nil
	}
	if !ok {
		return nil
	}
	return work(ctx)
}

// The function does the work itself and skips it on error: returning nil
// then says "nothing to do", and the work never ran without the lock.
func skipOnError(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		log.Print(err)
		return nil
	}
	if !ok {
		return errBusy
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return work(ctx)
}

// A release deferred before the tests of the reply, which then leave on
// error and busy alike.
func deferFirst(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return work(ctx)
}

// The error is returned; a nil error means acquired: correct.
func (m *Mutex) LockStrict(ctx context.Context) error {
	ok, err := m.rdb.SetNX(ctx, m.key, m.token, ttl).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}
