// Package coupons redeems coupons under two helper pairs: its own (an
// unexported pair of methods) and package locks' exported one.
package coupons

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"example.com/fixapp/locks"
)

var (
	ctx     = context.Background()
	errBusy = errors.New("coupon busy")
)

type store struct{ rdb *redis.Client }

// claim and unclaim are a pair of this package: the value is the same
// for every holder (LV204) and unclaim deletes whatever holds the key
// (LV201).
func (s *store) claim(code string, ttl time.Duration) error {
	key := fmt.Sprintf("coupon:%s", code)
	ret := s.rdb.SetNX(ctx, key, "", ttl)
	if err := ret.Err(); err != nil {
		return err
	}
	if !ret.Val() {
		return errBusy
	}
	return nil
}

func (s *store) unclaim(code string) error {
	key := fmt.Sprintf("coupon:%s", code)
	return s.rdb.Del(ctx, key).Err()
}

// Redeem claims the coupon, and gives the claim up after the work.
func (s *store) Redeem(code string, work func() error) error {
	if err := s.claim(code, time.Minute); err != nil {
		return err
	}
	werr := work()
	if err := s.unclaim(code); err != nil {
		return err
	}
	return werr
}

// Issue takes the issuing lock of package locks.
func Issue(rdb *redis.Client, batch string) error {
	key := "issue:" + batch
	if !locks.AcquireLock(rdb, key, 5*time.Second) {
		return errBusy
	}
	defer locks.ReleaseLock(rdb, key)
	return nil
}
