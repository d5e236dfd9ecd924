package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// A cache-fill (stampede) lock: its bool says whether a value was found,
// and the busy path answers it from a cache read. Silent.
func getWithLock(ctx context.Context, rdb *redis.Client, key string, load func() (string, error)) (string, bool, error) {
	ok, err := rdb.SetNX(ctx, "fill:"+key, "1", 5*time.Second).Result()
	if err != nil {
		return "", false, err
	}
	if !ok {
		v, gerr := rdb.Get(ctx, key).Result()
		if gerr != nil {
			return "", false, nil
		}
		return v, true, nil
	}
	defer rdb.Del(ctx, "fill:"+key)
	v, err := load()
	if err != nil {
		return "", false, err
	}
	rdb.Set(ctx, key, v, time.Minute)
	return v, true, nil
}

// Its neighbour returns true on the busy path whatever happens: the
// caller takes that for acquired.
func tryFill(ctx context.Context, rdb *redis.Client, key string) (bool, error) {
	ok, err := rdb.SetNX(ctx, "fill:"+key, "1", 5*time.Second).Result() // want `when SetNX finds the lock busy, this path still returns true \(acquired\): two holders run at once; return false`
	if err != nil {
		return false, err
	}
	if !ok {
		rdb.Get(ctx, key)
		return true, nil
	}
	return true, nil
}

// The same in a wait loop, the cache read reusing the acquire's error
// variable: a test of err after the read is a test of the read. Silent.
func waitFill(ctx context.Context, rdb *redis.Client, key string, deadline time.Time) (string, bool) {
	for {
		ok, err := rdb.SetNX(ctx, "fill:"+key, "1", 5*time.Second).Result()
		if err != nil {
			return "", false
		}
		if ok {
			defer rdb.Del(ctx, "fill:"+key)
			return "loaded", true
		}
		v, err := rdb.Get(ctx, key).Result()
		if err == nil {
			return v, true
		}
		if time.Now().After(deadline) {
			return "", false
		}
	}
}
