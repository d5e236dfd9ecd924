// Package mirror takes locks through the project's own Redis layer
// (lockvet.test/redisops/mirror/store): an interface of go-redis command
// values, one of plain values, and a forwarder of redigo's Do.
package mirror

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

func typed(ctx context.Context, s store.Store, key string) bool {
	ok, err := s.SetNX(ctx, key, "tok", 0).Result()
	if err != nil || !ok {
		return false
	}
	s.Expire(ctx, key, 30*time.Second) // want `Expire after SetNX acquired key without a TTL`
	defer s.Del(ctx, key)
	return true
}

func plain(b store.Backend, key string) error {
	ok, err := b.SetNx(key, "tok", 0)
	if err != nil || !ok {
		return err
	}
	b.Expire(key, 30) // want `Expire after SetNx acquired key without a TTL`
	return b.Del(key)
}

func forwarded(p *store.Pool, key, tok string) error {
	n, err := p.SafeDo("SETNX", key, tok)
	if err != nil || n != int64(1) {
		return err
	}
	p.SafeDo("EXPIRE", key, 30) // want `EXPIRE after SETNX acquired key without a TTL`
	_, err = p.SafeDo("DEL", key)
	return err
}

// --- silent ---

// A rate limiter: the first INCR of a window gives it its TTL.
func allow(b store.Backend, user string) bool {
	key := "rate:" + user
	n, err := b.Incr(key)
	if err != nil {
		return false
	}
	if n == 1 {
		b.Expire(key, 60)
	}
	return n <= 100
}

// Cache writes in a loop, each given its TTL after the write.
func fill(b store.Backend, items map[string]string) {
	for k, v := range items {
		b.Set("cache:"+k, v)
		b.Expire("cache:"+k, 300)
	}
}
