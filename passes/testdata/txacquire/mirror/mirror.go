// Package mirror puts SETNX and EXPIRE in one transaction through the
// project's own Redis layer (lockvet.test/redisops/mirror/store).
package mirror

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

func typed(ctx context.Context, s store.Store, key, tok string) (bool, error) {
	pipe := s.TxPipeline()
	ok := pipe.SetNX(ctx, key, tok, 0)
	pipe.Expire(ctx, key, 30*time.Second) // want `Expire in the same transaction as SetNX runs even when it lost`
	if _, err := pipe.Exec(ctx); err != nil {
		return false, err
	}
	return ok.Val(), nil
}

func wrapped(ctx context.Context, w store.Wrapped, key, tok string) (bool, error) {
	pipe := w.TxPipeline(ctx)
	ok := pipe.SetNX(ctx, key, tok, 0)
	pipe.Expire(ctx, key, 30*time.Second) // want `Expire in the same transaction as SetNX runs even when it lost`
	if _, err := pipe.Exec(ctx); err != nil {
		return false, err
	}
	return ok.Val(), nil
}

// --- silent ---

// A counter and its window in one transaction: no lock.
func count(ctx context.Context, s store.Store, key string) error {
	pipe := s.TxPipeline()
	pipe.Incr(ctx, key)
	pipe.Expire(ctx, key, time.Minute)
	_, err := pipe.Exec(ctx)
	return err
}
