package orders

import (
	"context"
	"time"
)

const refundLockTTL = time.Minute

// lockRefund takes the refund lock; the caller releases it.
func (s *Service) lockRefund(ctx context.Context, orderID, token string) (bool, error) {
	key := "lock:refund:" + orderID
	ok, err := s.rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil || !ok {
		return false, err
	}
	return true, s.rdb.Expire(ctx, key, refundLockTTL).Err() // LV101: no automatic fix here, the EXPIRE's error is returned
}

// Refund refunds an order once.
func (s *Service) Refund(ctx context.Context, orderID string, refund func(context.Context) error) error {
	token := newToken()
	ok, err := s.lockRefund(ctx, orderID, token)
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer s.release(context.Background(), "lock:refund:"+orderID, token)
	return refund(ctx)
}
