// Package lockstruct keeps its locks in structs: Lock stores the key in a
// field of the receiver and Unlock deletes that field's key, with no token
// kept between them.
package lockstruct

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

func newID() string { return rand.Text() }

// mutex writes a random id but forgets it: the fix keeps it in a field
// and Unlock compares with it.
type mutex struct {
	rdb    *redis.Client
	key    string
	locked bool
}

func newMutex(rdb *redis.Client) *mutex {
	return &mutex{rdb: rdb}
}

func (m *mutex) Lock(ctx context.Context, name string, ttl time.Duration) (bool, error) {
	m.key = fmt.Sprintf("lock:%s", name)
	id := newID()
	ok, err := m.rdb.SetNX(ctx, m.key, id, ttl).Result()
	m.locked = ok
	return ok, err
}

func (m *mutex) Unlock(ctx context.Context) error {
	if !m.locked {
		return nil
	}
	return m.rdb.Del(ctx, m.key).Err() // want `Del of lock key m.key does not check the owner`
}

// flag writes a constant: the fix makes a random token for each Lock.
type flag struct {
	rdb *redis.Client
	key string
}

func (f *flag) Lock(ctx context.Context, ttl time.Duration) bool {
	return f.rdb.SetNX(ctx, f.key, "1", ttl).Val()
}

func (f *flag) Unlock(ctx context.Context) {
	f.rdb.Del(ctx, f.key) // want `Del of lock key f.key does not check the owner, and every holder writes "1"`
}

func useFlag(ctx context.Context, rdb *redis.Client) {
	f := &flag{rdb: rdb, key: "lock:report"}
	if !f.Lock(ctx, time.Minute) {
		return
	}
	defer f.Unlock(ctx)
}

// --- no fix ---

// Unkeyed literals of the type would break with a new field.
type pos struct {
	rdb *redis.Client
	key string
}

var _ = &pos{nil, "lock:pos"}

func (p *pos) Lock(ctx context.Context) bool {
	return p.rdb.SetNX(ctx, p.key, newID(), time.Minute).Val()
}

func (p *pos) Unlock(ctx context.Context) {
	p.rdb.Del(ctx, p.key) // want `Del of lock key p.key does not check the owner`
}

// The key field is changed by another method: the token kept at Lock
// may belong to another key.
type moved struct {
	rdb *redis.Client
	key string
}

func (m *moved) Rename(key string) { m.key = key }

func (m *moved) Lock(ctx context.Context) bool {
	return m.rdb.SetNX(ctx, m.key, newID(), time.Minute).Val()
}

func (m *moved) Unlock(ctx context.Context) {
	m.rdb.Del(ctx, m.key) // want `Del of lock key m.key does not check the owner`
}

// Lock has a value receiver: a field it sets is lost.
type byValue struct {
	rdb *redis.Client
	key string
}

func (b byValue) Lock(ctx context.Context) bool {
	return b.rdb.SetNX(ctx, b.key, newID(), time.Minute).Val()
}

func (b *byValue) Unlock(ctx context.Context) {
	b.rdb.Del(ctx, b.key) // want `Del of lock key b.key does not check the owner`
}
