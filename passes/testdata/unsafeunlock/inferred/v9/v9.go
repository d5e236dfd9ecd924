// Lock helpers with no lock names (go-redis v9): a caller that takes the
// lock through one helper and releases it through another makes them one
// lock; the finding is at the DEL inside the release helper, once.
package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func Take(ctx context.Context, key, token string) bool {
	return rdb.SetNX(ctx, key, token, time.Minute).Val()
}

func Drop(ctx context.Context, key string) {
	rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
}

func job(ctx context.Context, id, token string) {
	if !Take(ctx, "job:"+id, token) {
		return
	}
	defer Drop(ctx, "job:"+id) // the finding is in Drop, not here
}

// --- silent ---

// The helpers build different keys from the same argument.
func TakeOrder(ctx context.Context, id, token string) bool {
	return rdb.SetNX(ctx, "order:"+id, token, time.Minute).Val()
}

func Forget(ctx context.Context, key string) {
	rdb.Del(ctx, key)
}

func order(ctx context.Context, id, token string) {
	if !TakeOrder(ctx, id, token) {
		return
	}
	defer Forget(ctx, id)
}

// A cache: Set/Get/Del wrappers.
func Put(ctx context.Context, key, v string) { rdb.Set(ctx, key, v, time.Hour) }

func Evict(ctx context.Context, key string) { rdb.Del(ctx, key) }

func cache(ctx context.Context, id string) {
	Put(ctx, "user:"+id, "x")
	Evict(ctx, "user:"+id)
}

// Reached through a function value.
func viaValue(ctx context.Context, id, token string) {
	take := Take
	if !take(ctx, "v:"+id, token) {
		return
	}
	drop := Forget
	drop(ctx, "v:"+id)
}
