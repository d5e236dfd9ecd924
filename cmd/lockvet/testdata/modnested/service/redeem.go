// Package service holds its cache behind an interface and wraps the
// cache's lock in a pair of its own, which degrades to no lock without a
// cache or when the cache fails.
package service

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

// ErrBusy: another request redeems the code.
var ErrBusy = errors.New("busy")

// RedeemService redeems codes.
type RedeemService struct {
	cache RedeemCache
}

// NewRedeemService returns the service on cache (nil: no lock).
func NewRedeemService(cache RedeemCache) *RedeemService { return &RedeemService{cache: cache} }

func (s *RedeemService) acquireRedeemLock(ctx context.Context, code string) bool {
	if s.cache == nil {
		return true
	}
	ok, err := s.cache.AcquireRedeemLock(ctx, code, 10*time.Second)
	if err != nil {
		return true
	}
	return ok
}

func (s *RedeemService) releaseRedeemLock(ctx context.Context, code string) {
	if s.cache == nil {
		return
	}
	_ = s.cache.ReleaseRedeemLock(ctx, code)
}

// Redeem redeems code under its lock.
func (s *RedeemService) Redeem(ctx context.Context, code string) (int, error) {
	if !s.acquireRedeemLock(ctx, code) {
		return 0, ErrBusy
	}
	defer s.releaseRedeemLock(ctx, code)
	return len(code), nil
}
