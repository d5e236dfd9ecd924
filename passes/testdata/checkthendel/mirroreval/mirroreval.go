// Package mirroreval compares and deletes through the package's own
// Redis interface, which has no Eval and which only go-redis v8 clients
// meet: the fix gives the interface the client's Eval.
package mirroreval

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

type client interface {
	SetNX(ctx context.Context, key string, value interface{}, ttl time.Duration) *redis.BoolCmd
	Get(ctx context.Context, key string) *redis.StringCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd // one key or more
}

type locker struct {
	c   client
	ttl time.Duration
}

func newLocker(opts *redis.Options, cluster *redis.ClusterOptions) *locker {
	if cluster != nil {
		return &locker{c: redis.NewClusterClient(cluster), ttl: time.Minute}
	}
	return &locker{c: redis.NewClient(opts), ttl: time.Minute}
}

func (l *locker) lock(ctx context.Context, key, tok string) (func(context.Context) error, error) {
	ok, err := l.c.SetNX(ctx, key, tok, l.ttl).Result()
	if err != nil || !ok {
		return nil, err
	}
	return func(ctx context.Context) error {
		v, err := l.c.Get(ctx, key).Result()
		if err != nil {
			return err
		}
		if v != tok {
			return nil
		}
		del := l.c.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock`
		return del.Err()
	}, nil
}
