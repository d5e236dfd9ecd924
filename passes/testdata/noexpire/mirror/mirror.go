// Package mirror takes locks with no TTL through the project's own Redis
// layer (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

func work() {}

func typed(ctx context.Context, s store.Store, key, tok string) {
	if ok, err := s.SetNX(ctx, key, tok, 0).Result(); err != nil || !ok { // want `lock key is acquired by SetNX with no TTL`
		return
	}
	work()
	s.Eval(ctx, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`, []string{key}, tok)
}

func plain(b store.Backend, key, tok string) error {
	ok, err := b.SetNx(key, tok, 0) // want `lock key is acquired by SetNx with no TTL`
	if err != nil || !ok {
		return err
	}
	work()
	return b.Del(key)
}

func forwarded(p *store.Pool, key, tok string) error {
	r, err := p.SafeDo("SET", key, tok, "NX") // want `lock key is acquired by SET with no TTL`
	if err != nil || r == nil {
		return err
	}
	work()
	_, err = p.SafeDo("DEL", key)
	return err
}

// --- silent ---

func withTTL(ctx context.Context, s store.Store, key, tok string) {
	if ok, err := s.SetNX(ctx, key, tok, time.Minute).Result(); err == nil && ok {
		work()
	}
}

func plainTTL(b store.Backend, key, tok string) {
	if ok, err := b.SetNx(key, tok, 60); err == nil && ok {
		work()
	}
}

func forwardedTTL(p *store.Pool, key, tok string) {
	if r, err := p.SafeDo("SET", key, tok, "NX", "PX", 30000); err == nil && r != nil {
		work()
	}
}

// A cache write with no TTL is no lock.
func cacheFill(c store.Cache, ctx context.Context, key string, v []byte) error {
	return c.Set(ctx, key, v, 0)
}
