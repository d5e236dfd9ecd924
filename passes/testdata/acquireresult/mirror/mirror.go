// Package mirror reads, or drops, the outcome of acquires made through
// the project's own Redis layer (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

func work() {}

func typed(ctx context.Context, s store.Store, key, tok string) error {
	if err := s.SetNX(ctx, key, tok, 30*time.Second).Err(); err != nil { // want `only the error of SetNX is checked: a held lock is false with a nil error, so this runs without the lock; check the bool too`
		return err
	}
	work()
	return s.Del(ctx, key).Err()
}

func plain(b store.Backend, key, tok string) error {
	_, err := b.SetNx(key, tok, 30) // want `only the error of SetNx is checked: a held lock is false with a nil error, so this runs without the lock; check the bool too`
	if err != nil {
		return err
	}
	work()
	return b.Del(key)
}

func forwarded(p *store.Pool, key, tok string) error {
	if _, err := p.SafeDo("SET", key, tok, "NX", "PX", 30000); err != nil { // want `only the error of SET is checked: a held lock is a nil reply with a nil error, so this runs without the lock; check the reply too`
		return err
	}
	work()
	_, err := p.SafeDo("DEL", key)
	return err
}

// --- silent ---

func checked(ctx context.Context, s store.Store, key, tok string) {
	if ok, err := s.SetNX(ctx, key, tok, time.Minute).Result(); err == nil && ok {
		work()
		s.Del(ctx, key)
	}
}

func checkedPlain(b store.Backend, key, tok string) {
	if ok, err := b.SetNx(key, tok, 60); err == nil && ok {
		work()
		b.Del(key)
	}
}

func checkedForwarded(p *store.Pool, key, tok string) error {
	r, err := p.SafeDo("SET", key, tok, "NX", "PX", 30000)
	if err != nil || r == nil {
		return err
	}
	work()
	_, err = p.SafeDo("DEL", key)
	return err
}
