// Package mirroreval releases locks through the package's own Redis
// interfaces, which have no Eval: the fix gives the interface one, and
// every type of the package whose values meet it.
package mirroreval

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var errBusy = errors.New("busy")

func work() error { return nil }

// cmds is met by the client itself and by a wrapper of it.
type cmds interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) *redis.BoolCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

func newCmds(addr string, wrap bool) cmds {
	c := redis.NewClient(&redis.Options{Addr: addr})
	if wrap {
		return &logged{rdb: c}
	}
	return c
}

// logged wraps the client.
type logged struct {
	rdb *redis.Client
}

func (l *logged) SetNX(ctx context.Context, key string, value any, ttl time.Duration) *redis.BoolCmd {
	return l.rdb.SetNX(ctx, key, value, ttl)
}

func (l *logged) Del(ctx context.Context, keys ...string) *redis.IntCmd {
	return l.rdb.Del(ctx, keys...)
}

func withCmds(ctx context.Context, c cmds, key, tok string) error {
	ok, err := c.SetNX(ctx, key, tok, 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer c.Del(ctx, key) // want `Del of lock key key does not check the owner`
	return work()
}

// backend returns plain values.
type backend interface {
	SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error)
	Del(ctx context.Context, key string) error
}

// client wraps any go-redis client.
type client struct {
	rdb  redis.UniversalClient
	name string
}

func newBackend(rdb redis.UniversalClient) backend { return &client{rdb: rdb, name: "main"} }

func (c *client) SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, value, ttl).Result()
}

func (c *client) Del(ctx context.Context, key string) error {
	return c.rdb.Del(ctx, key).Err()
}

func withBackend(ctx context.Context, b backend, key, tok string) error {
	ok, err := b.SetNX(ctx, key, tok, time.Minute)
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	werr := work()
	if err := b.Del(ctx, key); err != nil { // want `Del of lock key key does not check the owner`
		return err
	}
	return werr
}

// --- no fix: a type that meets the interface wraps no client ---

type kv interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) *redis.BoolCmd
	Exists(ctx context.Context, keys ...string) *redis.IntCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

// memKV is an in-memory stand-in.
type memKV struct{ m map[string]any }

func (m *memKV) SetNX(ctx context.Context, key string, value any, ttl time.Duration) *redis.BoolCmd {
	_, held := m.m[key]
	if !held {
		m.m[key] = value
	}
	return redis.NewBoolResult(!held, nil)
}

func (m *memKV) Exists(ctx context.Context, keys ...string) *redis.IntCmd {
	n := 0
	for _, k := range keys {
		if _, ok := m.m[k]; ok {
			n++
		}
	}
	return redis.NewIntResult(int64(n), nil)
}

func (m *memKV) Del(ctx context.Context, keys ...string) *redis.IntCmd {
	for _, k := range keys {
		delete(m.m, k)
	}
	return redis.NewIntResult(int64(len(keys)), nil)
}

func newKV(test bool) kv {
	if test {
		return &memKV{m: map[string]any{}}
	}
	return redis.NewClient(&redis.Options{})
}

func withKV(ctx context.Context, s kv, key, tok string) error {
	ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer s.Del(ctx, key) // want `Del of lock key key does not check the owner.*\(no fix: kv has no Eval: memKV \(mirroreval.go\) wraps no go-redis client\)`
	return work()
}

// Exported, so another package could meet it: analysistest loads one
// package, so there is no fix.
type Shared interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) *redis.BoolCmd
	Del(ctx context.Context, keys ...string) *redis.IntCmd
}

func withShared(ctx context.Context, s Shared, key, tok string) error {
	ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer s.Del(ctx, key) // want `\(no fix: Shared has no Eval, and not every package that can implement it is loaded\)`
	return work()
}

// --- no fix: the token is not kept, and a fake meets the interface ---

type store interface {
	SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error)
	Del(ctx context.Context, key string) error
}

type fakeStore struct{ m map[string]string }

func (f *fakeStore) SetNX(_ context.Context, key, value string, _ time.Duration) (bool, error) {
	if _, ok := f.m[key]; ok {
		return false, nil
	}
	f.m[key] = value
	return true, nil
}

func (f *fakeStore) Del(_ context.Context, key string) error {
	delete(f.m, key)
	return nil
}

type storeLocker struct{ s store }

func newStoreLocker() *storeLocker { return &storeLocker{s: &fakeStore{m: map[string]string{}}} }

func (l *storeLocker) Acquire(ctx context.Context, key, token string) (*heldLock, error) {
	ok, err := l.s.SetNX(ctx, key, token, time.Minute)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errBusy
	}
	return &heldLock{s: l.s, key: key}, nil
}

type heldLock struct {
	s   store
	key string
}

func (h *heldLock) Release(ctx context.Context) error {
	return h.s.Del(ctx, h.key) // want `Release has no token: have Acquire store it with the key \(no fix: store has no Eval: fakeStore \(mirroreval.go\) wraps no go-redis client\)`
}
