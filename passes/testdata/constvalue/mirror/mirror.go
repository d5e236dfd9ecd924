// Package mirror takes locks with a value every holder shares through the
// project's own Redis layer (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

func work() {}

func typed(ctx context.Context, s store.Store, key string) {
	if ok, err := s.SetNX(ctx, key, 1, 30*time.Second).Result(); err != nil || !ok { // want `lock key is acquired with the constant 1 and released`
		return
	}
	defer s.Del(ctx, key)
	work()
}

func plain(b store.Backend, key string) error {
	ok, err := b.SetNx(key, "locked", 30) // want `lock key is acquired with the constant "locked" and released`
	if err != nil || !ok {
		return err
	}
	defer b.Del(key)
	work()
	return nil
}

func forwarded(p *store.Pool, key string) error {
	r, err := p.SafeDo("SET", key, 1, "NX", "PX", 30000) // want `lock key is acquired with the constant 1 and released`
	if err != nil || r == nil {
		return err
	}
	defer p.SafeDo("DEL", key)
	work()
	return nil
}

// --- silent ---

// An idempotency marker: set once, never released.
func once(ctx context.Context, s store.Store, id string) bool {
	ok, _ := s.SetNX(ctx, "seen:"+id, 1, 24*time.Hour).Result()
	return ok
}
