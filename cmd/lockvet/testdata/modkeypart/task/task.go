// Package task works on accounts under their lock.
package task

import (
	"context"
	"fmt"

	"example.com/modkeypart/cache"
)

// Settle settles an account under its lock, renewed while it works.
func Settle(ctx context.Context, s *cache.Store, id string) error {
	if err := s.LockAccount(ctx, id); err != nil {
		return err
	}
	defer func() {
		if err := s.UnlockAccount(ctx, id); err != nil {
			fmt.Println("unlock:", err)
		}
	}()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.KeepAccount(ctx, id)
	return nil
}

// Close closes an account under its lock.
func Close(ctx context.Context, s *cache.Store, id string) error {
	if err := s.LockAccount(ctx, id); err != nil {
		return err
	}
	defer s.UnlockAccount(ctx, id)
	return nil
}
