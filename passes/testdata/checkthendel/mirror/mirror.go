// Package mirror compares and deletes through the project's own Redis
// layer (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

func work() {}

// Store has Eval: the DEL becomes the compare-and-delete script.
func withStore(ctx context.Context, s store.Store, key, tok string) {
	if ok, err := s.SetNX(ctx, key, tok, 30*time.Second).Result(); err != nil || !ok {
		return
	}
	work()
	if s.Get(ctx, key).Val() == tok {
		s.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock`
	}
}

// Backend has no Eval, and other packages can implement it: no fix, and
// the message says why.
func withBackend(b store.Backend, key, tok string) error {
	ok, err := b.SetNx(key, tok, 30)
	if err != nil || !ok {
		return err
	}
	work()
	v, err := b.Get(key)
	if err != nil {
		return err
	}
	if v == tok {
		return b.Del(key) // want `Del of key after a separate GET compare can delete another holder's lock.*\(no fix: Backend has no Eval, and not every package that can implement it is loaded\)`
	}
	return nil
}
