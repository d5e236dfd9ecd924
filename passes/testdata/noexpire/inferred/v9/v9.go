// An acquire helper with no TTL: reported at its SETNX, once, not at
// every call.
package v9

import (
	"context"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

func Lock(ctx context.Context, key string) (bool, error) {
	return rdb.SetNX(ctx, "lock:"+key, "1", 0).Result() // want `lock "lock:" \+ key is acquired by SetNX with no TTL and nothing expires it`
}

func Unlock(ctx context.Context, key string) error {
	return rdb.Del(ctx, "lock:"+key).Err()
}

func a(ctx context.Context, id string) error {
	ok, err := Lock(ctx, id)
	if err != nil || !ok {
		return err
	}
	return Unlock(ctx, id)
}

func b(ctx context.Context, id string) error {
	ok, err := Lock(ctx, "b:"+id)
	if err != nil || !ok {
		return err
	}
	return Unlock(ctx, "b:"+id)
}
