// Package ctor holds lock types on go-redis v9 whose constructors take
// the lock's value from their callers (constvalue/ctor calls them).
package ctor

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// Locker decides it holds the lock by reading the value back: every
// caller that passes the same value holds it at once.
type Locker struct {
	Key   string
	Value string
	TTL   time.Duration
	Conn  redis.UniversalClient
}

// NewLocker keeps value as the lock's value.
func NewLocker(key, value string, ttl time.Duration, conn redis.UniversalClient) *Locker { // want NewLocker:"ctor value=1 key=0 Locker.Value Lock SetNX UnLock owner=acquire:Lock"
	return &Locker{Key: key, Value: value, TTL: ttl, Conn: conn}
}

// Lock takes the lock.
func (o *Locker) Lock(ctx context.Context) (bool, error) {
	if _, err := o.Conn.SetNX(ctx, o.Key, o.Value, o.TTL).Result(); err != nil {
		return false, err
	}
	got, err := o.Conn.Get(ctx, o.Key).Result()
	if err != nil {
		return false, err
	}
	return got == o.Value, nil
}

// UnLock deletes the lock, whoever holds it.
func (o *Locker) UnLock(ctx context.Context) error {
	return o.Conn.Del(ctx, o.Key).Err()
}

var unlock = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// Mutex releases with a compare-and-delete of its token.
type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

// NewMutex keeps token as the lock's value; the key is built from name.
func NewMutex(rdb *redis.Client, name, token string) *Mutex { // want NewMutex:"ctor value=2 key=-1 Mutex.token Lock SetNX Unlock owner=release:Unlock"
	m := new(Mutex)
	m.rdb = rdb
	m.key = "lock:" + name
	m.token = token
	return m
}

// Lock takes the mutex for a minute.
func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.token, time.Minute).Result()
}

// Unlock deletes the mutex while it holds the token.
func (m *Mutex) Unlock(ctx context.Context) error {
	return unlock.Run(ctx, m.rdb, []string{m.key}, m.token).Err()
}

// Factory makes distributed locks.
type Factory struct {
	rdb *redis.Client
}

// DistLock releases with a bare DEL.
type DistLock struct {
	rdb   *redis.Client
	key   string
	owner string
}

// New keeps owner as the lock's value: a constructor that is a method of
// another type.
func (f *Factory) New(key, owner string) *DistLock { // want New:"ctor value=1 key=0 DistLock.owner Acquire SetNX Release"
	return &DistLock{rdb: f.rdb, key: key, owner: owner}
}

// Acquire takes the lock.
func (d *DistLock) Acquire(ctx context.Context) bool {
	return d.rdb.SetNX(ctx, d.key, d.owner, 30*time.Second).Val()
}

// Release deletes the lock, whoever holds it.
func (d *DistLock) Release(ctx context.Context) {
	d.rdb.Del(ctx, d.key)
}

// Fresh draws its token in Lock: the constructor's name is no value.
type Fresh struct {
	rdb   *redis.Client
	name  string
	token string
}

// NewFresh keeps name, the key, not the value: no fact.
func NewFresh(rdb *redis.Client, name string) *Fresh {
	return &Fresh{rdb: rdb, name: name}
}

// NewFreshToken passes a token that Lock replaces anyway: no fact.
func NewFreshToken(rdb *redis.Client, name, token string) *Fresh {
	return &Fresh{rdb: rdb, name: name, token: token}
}

// Lock draws a token and takes the lock.
func (f *Fresh) Lock(ctx context.Context) (bool, error) {
	f.token = uuid.NewString()
	return f.rdb.SetNX(ctx, "lock:"+f.name, f.token, time.Minute).Result()
}

// Unlock deletes the lock while it holds the token.
func (f *Fresh) Unlock(ctx context.Context) error {
	return unlock.Run(ctx, f.rdb, []string{"lock:" + f.name}, f.token).Err()
}

// Named draws its value in its constructor: no parameter is the value.
type Named struct {
	rdb   *redis.Client
	key   string
	value string
}

// NewNamed keeps name in the key and a fresh value: no fact.
func NewNamed(rdb *redis.Client, name string) *Named {
	return &Named{rdb: rdb, key: "lock:" + name, value: uuid.NewString()}
}

// Lock takes the lock.
func (n *Named) Lock(ctx context.Context) (bool, error) {
	return n.rdb.SetNX(ctx, n.key, n.value, time.Minute).Result()
}

// Unlock deletes the lock while it holds the value.
func (n *Named) Unlock(ctx context.Context) error {
	return unlock.Run(ctx, n.rdb, []string{n.key}, n.value).Err()
}

// Entry is a cache entry filled if absent and dropped: no lock, no fact.
type Entry struct {
	rdb *redis.Client
	key string
	val string
}

// NewEntry keeps val as the entry's value.
func NewEntry(rdb *redis.Client, key, val string) *Entry {
	return &Entry{rdb: rdb, key: key, val: val}
}

// Fill writes the entry unless it is there.
func (e *Entry) Fill(ctx context.Context) error {
	return e.rdb.SetNX(ctx, e.key, e.val, time.Hour).Err()
}

// Drop invalidates the entry.
func (e *Entry) Drop(ctx context.Context) error {
	return e.rdb.Del(ctx, e.key).Err()
}

// Marker is a lock taken with no TTL: never passed to another holder, its
// value needs no owner check. No fact.
type Marker struct {
	rdb   *redis.Client
	key   string
	value string
}

// NewMarker keeps value as the lock's value.
func NewMarker(rdb *redis.Client, key, value string) *Marker {
	return &Marker{rdb: rdb, key: key, value: value}
}

// Lock takes the lock for good.
func (m *Marker) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.value, 0).Result()
}

// Unlock deletes it.
func (m *Marker) Unlock(ctx context.Context) error {
	return m.rdb.Del(ctx, m.key).Err()
}
