package v9

import (
	"context"
	"log"

	"github.com/redis/go-redis/v9"
)

// `_ = ok` keeps the compiler quiet; it reads nothing. Busy still runs
// the work and the release.
func blankBool(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result() // want `when SetNX finds the lock busy, this path still runs the work and the release; stop when the key was not set`
	if err != nil {
		return err
	}
	_ = ok
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return work(ctx)
}

// The same with the error only logged: a failure runs the work too.
func blankBoolLogged(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result() // want `when SetNX fails, this path still runs the work and the release without the lock; stop on the error`
	if err != nil {
		log.Print(err)
	}
	_ = ok
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return work(ctx)
}

// --- silent ---

// Discarded, then tested all the same.
func blankThenTested(ctx context.Context, rdb *redis.Client, key, token string) error {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	_ = ok
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer unlockScript.Run(ctx, rdb, []string{key}, token)
	return work(ctx)
}

// Copied into another variable: where the copy goes is not followed, so
// nothing is said.
func copiedBool(ctx context.Context, rdb *redis.Client, key, token string) (held bool, err error) {
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	held, _ = ok, 0
	return held, err
}

// A marker that nothing releases: discarding whether it was set is the
// caller's choice.
func markOnce(ctx context.Context, rdb *redis.Client, id string) error {
	ok, err := rdb.SetNX(ctx, "seen:"+id, "1", ttl).Result()
	_ = ok
	return err
}
