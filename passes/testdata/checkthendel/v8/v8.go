package v8

import (
	"context"

	"github.com/go-redis/redis/v8"
)

func unlock(ctx context.Context, rdb *redis.Client, key, token string) {
	if rdb.Get(ctx, key).Val() == token {
		rdb.Del(ctx, key) // want `Del of key after a separate`
	}
}

func unlockCount(ctx context.Context, rdb redis.UniversalClient, key, token string) (n int64, err error) {
	if rdb.Get(ctx, key).Val() == token {
		n, err = rdb.Unlink(ctx, key).Result() // want `Unlink of key after a separate`
	}
	return
}

// --- silent ---

// A cache entry read, then invalidated: no comparison guards the DEL.
func invalidate(ctx context.Context, rdb *redis.Client, key string) string {
	v := rdb.Get(ctx, key).Val()
	rdb.Del(ctx, key)
	return v
}

// A one-time login code: not a lock (no NX acquire, no lock name).
func checkCode(ctx context.Context, rdb *redis.Client, user, code string) bool {
	key := "login:code:" + user
	if rdb.Get(ctx, key).Val() != code {
		return false
	}
	rdb.Del(ctx, key)
	return true
}
