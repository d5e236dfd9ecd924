package orders

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

const paymentLockTTL = 2 * time.Minute

// lockPayment was "made atomic" by wrapping both commands in MULTI/EXEC.
// EXEC runs the EXPIRE even when the SETNX lost, so a retry re-arms the
// TTL of the request that holds the lock.
func (s *Service) lockPayment(ctx context.Context, orderID, token string) (bool, error) {
	key := "lock:payment:" + orderID
	var acquired *redis.BoolCmd
	_, err := s.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		acquired = pipe.SetNX(ctx, key, token, 0)
		pipe.Expire(ctx, key, paymentLockTTL) // LV102: EXEC runs this EXPIRE even when the SETNX lost
		return nil
	})
	if err != nil {
		return false, err
	}
	return acquired.Val(), nil
}

// lockShipment is the same bug with a TxPipeline value.
func (s *Service) lockShipment(ctx context.Context, orderID, token string) (bool, error) {
	key := "lock:shipment:" + orderID
	pipe := s.rdb.TxPipeline()
	acquired := pipe.SetNX(ctx, key, token, 0)
	pipe.Expire(ctx, key, paymentLockTTL) // LV102: queued in MULTI, so it re-arms another owner's lock
	if _, err := pipe.Exec(ctx); err != nil {
		return false, err
	}
	return acquired.Val(), nil
}

// Pay charges an order once.
func (s *Service) Pay(ctx context.Context, orderID string, charge func(context.Context) error) error {
	token := newToken()
	ok, err := s.lockPayment(ctx, orderID, token)
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer s.release(context.Background(), "lock:payment:"+orderID, token)
	return charge(ctx)
}

// Ship hands an order to the carrier once.
func (s *Service) Ship(ctx context.Context, orderID string, ship func(context.Context) error) error {
	token := newToken()
	ok, err := s.lockShipment(ctx, orderID, token)
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	defer s.release(context.Background(), "lock:shipment:"+orderID, token)
	return ship(ctx)
}
