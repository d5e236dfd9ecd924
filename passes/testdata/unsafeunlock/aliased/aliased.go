// Package aliased locks through a client it does not import by name, and
// its lock values are a field of the locker set when it is built.
package aliased

import (
	"context"
	"fmt"
	"time"

	"lockvet.test/unsafeunlock/aliased/rdb"
)

// Locker takes one lock per job and run; owner names this process.
type Locker struct {
	client rdb.Client
	owner  string
}

func NewLocker(c rdb.Client, owner string) *Locker {
	return &Locker{client: c, owner: owner}
}

func (l *Locker) key(name string, run time.Time) string {
	return fmt.Sprintf("task:%s:%d", name, run.Unix())
}

func (l *Locker) Lock(ctx context.Context, name string, run time.Time) bool {
	ok, err := l.client.SetNX(ctx, l.key(name, run), l.owner, 5*time.Minute).Result()
	return err == nil && ok
}

// Unlock deletes the key whoever holds it: the fix compares it with the
// locker's owner, which only the literal above sets. No file of the
// package imports go-redis, so the fix runs the client's own Eval.
func (l *Locker) Unlock(ctx context.Context, name string, run time.Time) bool {
	err := l.client.Del(ctx, l.key(name, run)).Err() // want `Del of lock key l.key\(name, run\) does not check the owner`
	return err == nil
}

// --- no fix ---

// Shifty's owner is reassigned by a method, so at the release it may
// not be the value the acquire wrote.
type Shifty struct {
	client rdb.Client
	owner  string
}

func (s *Shifty) Rename(owner string) { s.owner = owner }

func (s *Shifty) key(name string) string { return "shifty:" + name }

func (s *Shifty) Lock(ctx context.Context, name string) bool {
	ok, err := s.client.SetNX(ctx, s.key(name), s.owner, time.Minute).Result()
	return err == nil && ok
}

func (s *Shifty) Unlock(ctx context.Context, name string) {
	s.client.Del(ctx, s.key(name)) // want `Del of lock key s.key\(name\) does not check the owner`
}
