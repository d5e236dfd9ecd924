package jobs

import (
	"context"

	"github.com/redis/go-redis/v9"

	"example.com/xpkg/cache"
)

// Claim queues the lock and its TTL in one transaction through the
// cache package's helpers (LV102).
func Claim(ctx context.Context, rdb *redis.Client, id string) (bool, error) {
	var set *redis.BoolCmd
	_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		set = cache.TryLock(ctx, pipe, id)
		cache.KeepLock(ctx, pipe, id)
		return nil
	})
	if err != nil {
		return false, err
	}
	return set.Val(), nil
}

// Allow counts hits: silent.
func Allow(ctx context.Context, rdb *redis.Client, user string) bool {
	var n *redis.IntCmd
	rdb.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		n = cache.Hit(ctx, pipe, user)
		cache.Window(ctx, pipe, user)
		return nil
	})
	return n.Val() <= 100
}

// Run takes and drops one locker's lock (LV201 at Drop); Move drops
// another locker's key: silent.
func Run(ctx context.Context, l *cache.Locker, id string) error {
	ok, err := l.Take(ctx, id)
	if err != nil || !ok {
		return err
	}
	defer l.Drop(ctx, id)
	return nil
}

func Move(ctx context.Context, from, to *cache.Locker, id string) error {
	ok, err := from.Take(ctx, id)
	if err != nil || !ok {
		return err
	}
	return to.Drop(ctx, id)
}
