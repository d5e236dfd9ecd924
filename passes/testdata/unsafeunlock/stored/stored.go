// Package stored keeps the acquired key in a field of a lock value and
// releases it through that field, in another method.
package stored

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errHeld = errors.New("held")

type Locker struct{ rdb *redis.Client }

type lease struct {
	rdb *redis.Client
	key string
}

// The acquired key goes into the lease; its Release deletes it with no
// owner check.
func (l *Locker) Acquire(ctx context.Context, key string, ttl time.Duration) (*lease, error) {
	ok, err := l.rdb.SetNX(ctx, key, rand.Text(), ttl).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errHeld
	}
	return &lease{rdb: l.rdb, key: key}, nil
}

func (l *lease) Release(ctx context.Context) error {
	return l.rdb.Del(ctx, l.key).Err() // want `Del of lock key l.key does not check the owner, so after the TTL it can delete another holder's lock`
}

// The key kept by an assignment after the acquire.
type Mutex struct {
	rdb  *redis.Client
	held string
}

func (m *Mutex) Lock(ctx context.Context, name string) bool {
	key := "jobs:" + name
	if !m.rdb.SetNX(ctx, key, rand.Text(), time.Minute).Val() {
		return false
	}
	m.held = key
	return true
}

func (m *Mutex) Unlock(ctx context.Context) {
	m.rdb.Del(ctx, m.held) // want `Del of lock key m.held does not check the owner`
}

// Silent: the token is kept too, and the release compares it.
var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

type safeLease struct {
	rdb   *redis.Client
	key   string
	token string
}

func acquireSafe(ctx context.Context, rdb *redis.Client, key string) *safeLease {
	tok := rand.Text()
	if !rdb.SetNX(ctx, key, tok, time.Minute).Val() {
		return nil
	}
	return &safeLease{rdb: rdb, key: key, token: tok}
}

func (l *safeLease) release(ctx context.Context) {
	unlock.Run(ctx, l.rdb, []string{l.key}, l.token)
}

// Silent: the field holds other keys too (a cache entry's), so a DEL of
// it says nothing of the lock.
type entry struct {
	rdb *redis.Client
	key string
}

func claim(ctx context.Context, rdb *redis.Client, key string) *entry {
	if !rdb.SetNX(ctx, key, rand.Text(), time.Minute).Val() {
		return nil
	}
	return &entry{rdb: rdb, key: key}
}

func cached(rdb *redis.Client, id string) *entry { return &entry{rdb: rdb, key: "cache:" + id} }

func (e *entry) drop(ctx context.Context) { e.rdb.Del(ctx, e.key) }

// Silent: a cache with key and TTL fields and no NX claim.
type Cache struct {
	rdb *redis.Client
	key string
	ttl time.Duration
}

func NewCache(rdb *redis.Client, key string) *Cache {
	return &Cache{rdb: rdb, key: key, ttl: time.Hour}
}

func (c *Cache) Put(ctx context.Context, v string) { c.rdb.Set(ctx, c.key, v, c.ttl) }
func (c *Cache) Drop(ctx context.Context)          { c.rdb.Del(ctx, c.key) }
