// Package svc is a service that holds its store behind an interface, as
// a repository layer does: the store is one object shared by every
// request.
package svc

import (
	"context"
	"errors"
	"time"
)

// RedeemCache is what the service asks of its cache.
type RedeemCache interface {
	AcquireRedeemLock(ctx context.Context, code string, ttl time.Duration) (bool, error)
	ReleaseRedeemLock(ctx context.Context, code string) error
}

// Service redeems codes.
type Service struct {
	Cache RedeemCache
}

// Redeem redeems code under its lock.
func (s *Service) Redeem(ctx context.Context, code string) error {
	ok, err := s.Cache.AcquireRedeemLock(ctx, code, 10*time.Second)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("busy")
	}
	defer func() { _ = s.Cache.ReleaseRedeemLock(ctx, code) }()
	return nil
}
