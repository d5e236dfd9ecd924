// Package sessions locks a session through the service's own interface
// (kv.Store), which has no Eval: the fix gives kv.Store one, and
// rediskv.Client, in another package, too.
package sessions

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"example.com/fixapp/kv"
)

var errBusy = errors.New("session busy")

// Rotate rotates the session's keys under its lock.
func Rotate(ctx context.Context, s kv.Store, sid string, rotate func() error) error {
	key := "lock:session:" + sid
	token := rand.Text()
	ok, err := s.SetNX(ctx, key, token, 30*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	werr := rotate()
	if err := s.Del(ctx, key); err != nil {
		return err
	}
	return werr
}
