package svc

import (
	"context"
	"testing"
	"time"
)

// fakeCache keeps its locks in memory.
type fakeCache struct{ held map[string]bool }

func (f *fakeCache) AcquireRedeemLock(_ context.Context, code string, _ time.Duration) (bool, error) {
	if f.held[code] {
		return false, nil
	}
	f.held[code] = true
	return true, nil
}

func (f *fakeCache) ReleaseRedeemLock(_ context.Context, code string) error {
	delete(f.held, code)
	return nil
}

func TestRedeem(t *testing.T) {
	s := &Service{Cache: &fakeCache{held: map[string]bool{}}}
	if err := s.Redeem(context.Background(), "CODE"); err != nil {
		t.Fatal(err)
	}
	ok, err := s.Cache.AcquireRedeemLock(context.Background(), "CODE", time.Second)
	if err != nil || !ok {
		t.Fatalf("after Redeem: %v %v", ok, err)
	}
	_ = s.Cache.ReleaseRedeemLock(context.Background(), "CODE")
}
