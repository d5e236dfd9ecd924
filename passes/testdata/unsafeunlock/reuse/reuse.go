package reuse

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Not equivalent: deletes without comparing.
var forceDel = redis.NewScript(`return redis.call("del", KEYS[1])`)

// Equivalent to lockvet's compare-and-delete: reused by the fix.
var releaseLock = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	return redis.call('DEL', KEYS[1])
end
return 0`)

func work(ctx context.Context, rdb *redis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
}

func done(ctx context.Context, rdb *redis.Client, key, token string) {
	releaseLock.Run(ctx, rdb, []string{key}, token)
	forceDel.Run(ctx, rdb, []string{"x"})
}
