// The value of a lock taken through a helper: a constant in the helper is
// reported there; a constant passed by a caller, at the call.
package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

// The constant is in the helper.
func Lock(ctx context.Context, key string) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+key, "locked", time.Minute).Result() // want `lock "lock:" \+ key is acquired with the constant "locked"`
}

func Unlock(ctx context.Context, key string) error {
	return rdb.Del(ctx, "lock:"+key).Err()
}

func order(ctx context.Context, id string) error {
	ok, err := Lock(ctx, id) // the finding is in Lock, not here
	if err != nil || !ok {
		return err
	}
	return Unlock(ctx, id)
}

// The constant is the caller's.
func Take(ctx context.Context, key, token string) (bool, error) {
	return rdb.SetNX(ctx, key, token, time.Minute).Result()
}

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func Give(ctx context.Context, key, token string) error {
	return unlockScript.Run(ctx, rdb, []string{key}, token).Err()
}

func job(ctx context.Context, id string) error {
	ok, err := Take(ctx, "job:"+id, "me") // want `is acquired with the constant "me"`
	if err != nil || !ok {
		return err
	}
	return Give(ctx, "job:"+id, "me")
}

// --- silent ---

func jobOK(ctx context.Context, id, token string) error {
	ok, err := Take(ctx, "job:"+id, token)
	if err != nil || !ok {
		return err
	}
	return Give(ctx, "job:"+id, token)
}

// An idempotency marker: a constant, never released.
func MarkDone(ctx context.Context, id string) (bool, error) {
	return rdb.SetNX(ctx, "done:"+id, "1", 24*time.Hour).Result()
}

func done(ctx context.Context, id string) (bool, error) { return MarkDone(ctx, id) }
