// Package mirror releases locks through the project's own Redis layer
// (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"errors"
	"time"

	"lockvet.test/redisops/mirror/store"
)

var errBusy = errors.New("busy")

func work() error { return nil }

func typed(ctx context.Context, s store.Store, key, tok string) error {
	ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	defer s.Del(ctx, key) // want `Del of lock key key does not check the owner`
	return work()
}

// Lock is a lock over a project interface that returns plain values.
type Lock struct {
	rdb      store.Backend
	key, tok string
}

func (l *Lock) Acquire() error {
	ok, err := l.rdb.SetNx(l.key, l.tok, 30)
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func (l *Lock) Release() error {
	return l.rdb.Del(l.key) // want `Del of lock key l.key does not check the owner`
}

func forwarded(p *store.Pool, key, tok string) error {
	r, err := p.SafeDo("SET", key, tok, "NX", "PX", 30000)
	if err != nil || r == nil {
		return errBusy
	}
	defer p.SafeDo("DEL", key) // want `DEL of lock key key does not check the owner`
	return work()
}

// --- silent ---

// A session in a cache of Get, Set and Del.
func logout(ctx context.Context, c store.Cache, sid string) error {
	if _, err := c.Get(ctx, "session:"+sid); err != nil {
		return err
	}
	return c.Del(ctx, "session:"+sid)
}

func login(ctx context.Context, c store.Cache, sid string, data []byte) error {
	return c.Set(ctx, "session:"+sid, data, time.Hour)
}

// A per-request idempotency key: claimed once, deleted only when the
// request failed so that a retry may run.
func handle(ctx context.Context, s store.Store, reqID string) error {
	key := "idem:" + reqID
	ok, err := s.SetNX(ctx, key, 1, 24*time.Hour).Result()
	if err != nil {
		return err
	}
	if !ok {
		return nil // a duplicate
	}
	if err := work(); err != nil {
		s.Del(ctx, key)
		return err
	}
	return nil
}

// A session written with Set and deleted at logout.
func session(b store.Backend, sid, user string) error {
	if err := b.Set("sess:"+sid, user); err != nil {
		return err
	}
	if err := work(); err != nil {
		return err
	}
	return b.Del("sess:" + sid)
}

// --- the project's own command values ---

// Only the error of the DEL's Result is read: the Eval's stands in.
func own(ctx context.Context, s store.Own, key, tok string) error {
	ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result()
	if err != nil || !ok {
		return errBusy
	}
	err = work()
	_, derr := s.Del(ctx, key).Result() // want `Del of lock key key does not check the owner`
	return errors.Join(err, derr)
}

// The count is read: Eval's Result has no count, so no fix.
func ownCount(ctx context.Context, s store.Own, key, tok string) bool {
	ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result()
	if err != nil || !ok {
		return false
	}
	n, _ := s.Del(ctx, key).Result() // want `Del of lock key key does not check the owner.*\(no fix: its reply is used\)`
	return n == 1
}

// A Backend has no Eval, and other packages can implement it: no fix,
// and the message says why.
func plain(b store.Backend, key, tok string) error {
	ok, err := b.SetNx(key, tok, 30)
	if err != nil || !ok {
		return errBusy
	}
	return b.Del(key) // want `Del of lock key key does not check the owner.*\(no fix: Backend has no Eval, and not every package that can implement it is loaded\)`
}

// Flow's lock pair writes a constant: the fix threads a token from
// getLock, whose result its caller assigns in an if, to releaseLock.
type Flow struct {
	s   store.Own
	key string
}

func (f *Flow) getLock(ctx context.Context) error {
	ok, err := f.s.SetNX(ctx, f.key, 1, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	return nil
}

func (f *Flow) releaseLock(ctx context.Context) {
	_, err := f.s.Del(ctx, f.key).Result() // want `Del of lock key f.key does not check the owner, and every holder writes 1`
	if err != nil {
		return
	}
}

func (f *Flow) run(ctx context.Context) (err error) {
	if err = f.getLock(ctx); err != nil {
		return err
	}
	defer f.releaseLock(ctx)
	return work()
}
