// Package mirror renews locks through the project's own Redis layer
// (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

func work() {}

func typed(ctx context.Context, s store.Store, key, tok string, done <-chan struct{}) {
	if ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result(); err != nil || !ok {
		return
	}
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			s.Expire(ctx, key, 30*time.Second) // want `Expire renews lock key in a loop without checking the token`
		}
	}
}

func plain(b store.Backend, key, tok string, done <-chan struct{}) {
	if ok, err := b.SetNx(key, tok, 30); err != nil || !ok {
		return
	}
	for {
		select {
		case <-done:
			return
		case <-time.After(10 * time.Second):
			b.Expire(key, 30) // want `Expire renews lock key in a loop without checking the token`
		}
	}
}

func forwarded(p *store.Pool, key, tok string, done <-chan struct{}) {
	if r, err := p.SafeDo("SET", key, tok, "NX", "PX", 30000); err != nil || r == nil {
		return
	}
	for {
		select {
		case <-done:
			return
		case <-time.After(10 * time.Second):
			p.SafeDo("PEXPIRE", key, 30000) // want `PEXPIRE renews lock key in a loop without checking the token`
		}
	}
}

// --- silent ---

const renew = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`

func checked(ctx context.Context, s store.Store, key, tok string, done <-chan struct{}) {
	if ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result(); err != nil || !ok {
		return
	}
	for {
		select {
		case <-done:
			return
		case <-time.After(10 * time.Second):
			s.Eval(ctx, renew, []string{key}, tok, 30000)
		}
	}
}

// Sessions touched in a loop: no lock.
func touch(b store.Backend, sessions []string) {
	for _, id := range sessions {
		b.Expire("session:"+id, 1800)
	}
}
