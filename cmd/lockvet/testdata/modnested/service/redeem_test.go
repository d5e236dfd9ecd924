package service

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
	s := NewRedeemService(&fakeCache{held: map[string]bool{}})
	if _, err := s.Redeem(context.Background(), "CODE"); err != nil {
		t.Fatal(err)
	}
	if !s.acquireRedeemLock(context.Background(), "CODE") {
		t.Fatal("after Redeem: still held")
	}
	s.releaseRedeemLock(context.Background(), "CODE")
	if _, err := NewRedeemService(nil).Redeem(context.Background(), "CODE"); err != nil {
		t.Fatal(err)
	}
}
