// Package fields keeps a lock's TTL in a field that its constructor sets
// to 0 or leaves out: go-redis' SetNX with 0 sets no expiry.
package fields

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/redis/go-redis/v9"
)

// The constructor leaves ttl out.
type Mutex struct {
	rdb *redis.Client
	key string
	ttl time.Duration
}

func NewMutex(rdb *redis.Client, name string) *Mutex {
	return &Mutex{rdb: rdb, key: "lock:" + name}
}

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, rand.Text(), m.ttl).Result() // want `lock m.key is acquired by SetNX with TTL field ttl never set \(0\) and nothing expires it: a dead holder keeps it forever; set it where the lock is made`
}

func (m *Mutex) Unlock(ctx context.Context) { m.rdb.Del(ctx, m.key) }

// An options struct whose default is 0 seconds.
type options struct {
	expire int
	retry  int
}

var defaults = options{expire: 0, retry: 3}

type Locker struct {
	rdb  *redis.Client
	opts options
}

func NewLocker(rdb *redis.Client) *Locker { return &Locker{rdb: rdb, opts: defaults} }

func (l *Locker) Lock(ctx context.Context, key string) bool {
	return l.rdb.SetNX(ctx, "job:"+key, rand.Text(), time.Duration(l.opts.expire)*time.Second).Val() // want `with TTL field expire only set to 0 and nothing expires it`
}

func (l *Locker) Unlock(ctx context.Context, key string) { l.rdb.Del(ctx, "job:"+key) }

// Silent: an option sets the TTL.
type lease struct {
	rdb *redis.Client
	key string
	ttl time.Duration
}

type Option func(*lease)

func WithTTL(d time.Duration) Option { return func(l *lease) { l.ttl = d } }

func newLease(rdb *redis.Client, key string, opts ...Option) *lease {
	l := &lease{rdb: rdb, key: key}
	for _, o := range opts {
		o(l)
	}
	return l
}

func (l *lease) Acquire(ctx context.Context) bool {
	return l.rdb.SetNX(ctx, l.key, rand.Text(), l.ttl).Val()
}

func (l *lease) Release(ctx context.Context) { l.rdb.Del(ctx, l.key) }

// Silent: an exported field, which other packages may set.
type Lock struct {
	RDB *redis.Client
	Key string
	TTL time.Duration
}

func (l *Lock) Acquire(ctx context.Context) bool {
	return l.RDB.SetNX(ctx, l.Key, rand.Text(), l.TTL).Val()
}

func (l *Lock) Release(ctx context.Context) { l.RDB.Del(ctx, l.Key) }

// Silent: the constructor sets a TTL.
type guard struct {
	rdb *redis.Client
	key string
	ttl time.Duration
}

func newGuard(rdb *redis.Client, key string) *guard {
	return &guard{rdb: rdb, key: key, ttl: 30 * time.Second}
}

func (g *guard) Lock(ctx context.Context) bool {
	return g.rdb.SetNX(ctx, g.key, rand.Text(), g.ttl).Val()
}

func (g *guard) Unlock(ctx context.Context) { g.rdb.Del(ctx, g.key) }
