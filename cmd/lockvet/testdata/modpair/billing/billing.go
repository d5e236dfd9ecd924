// Package billing takes the pair's lock around a charge.
package billing

import (
	"context"
	"time"

	"example.com/modpair/pairpkg"
)

// Charge charges an account under its lock.
func Charge(ctx context.Context, s *pairpkg.Store, account string) error {
	ok, err := s.Lock(ctx, "charge:"+account, 10*time.Second)
	if err != nil || !ok {
		return err
	}
	defer s.Unlock(ctx, "charge:"+account)
	return nil
}
