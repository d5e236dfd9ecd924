// Package cache is a Lock/Unlock/renew helper trio whose value is a part
// of its own key (SETNX "lock:account:"+id with the value id), released by
// a bare DEL and renewed by a bare EXPIRE (LV201, LV203); its callers, in
// package task, pass the id (LV204 at each call). One fix, the pair's,
// makes the token in LockAccount and threads it to UnlockAccount and
// KeepAccount and through every caller: each finding offers it.
package cache

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

const prefix = "lock:account:"

// ErrBusy: another holder has the account.
var ErrBusy = errors.New("account is locked")

// Store holds the client.
type Store struct {
	RDB *redis.Client
}

// LockAccount takes the account's lock.
func (s *Store) LockAccount(ctx context.Context, id string) error {
	ok, err := s.RDB.SetNX(ctx, prefix+id, id, time.Minute).Result()
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	return nil
}

// UnlockAccount gives it up.
func (s *Store) UnlockAccount(ctx context.Context, id string) error {
	return s.RDB.Del(ctx, prefix+id).Err()
}

// KeepAccount extends it until ctx ends.
func (s *Store) KeepAccount(ctx context.Context, id string) {
	t := time.NewTicker(10 * time.Second)
	go func() {
		defer t.Stop()
		for {
			select {
			case <-t.C:
				if err := s.RDB.Expire(ctx, prefix+id, time.Minute).Err(); err != nil {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
}
