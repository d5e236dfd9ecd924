// Package orders is the order service. It uses go-redis v8 (not yet
// migrated to v9) and locks an order while it is being changed.
package orders

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/go-redis/redis/v8"
)

// ErrBusy means another request is changing the same order.
var ErrBusy = errors.New("orders: order is being changed by another request")

const orderLockTTL = 15 * time.Second

var releaseScript = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// Cache is what the service needs from the summary cache.
type Cache interface {
	Invalidate(ctx context.Context, orderID string) error
}

// Service changes orders.
type Service struct {
	rdb   *redis.Client
	cache Cache
}

// NewService returns a Service.
func NewService(rdb *redis.Client, cache Cache) *Service {
	return &Service{rdb: rdb, cache: cache}
}

func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func orderLock(id string) string { return fmt.Sprintf("lock:order:%s", id) }

func (s *Service) release(ctx context.Context, key, token string) error {
	return releaseScript.Run(ctx, s.rdb, []string{key}, token).Err()
}

// UpdateAddress changes the shipping address under the order lock: SET NX
// with the TTL in one command, released by the compare-and-delete script.
// Nothing to report.
func (s *Service) UpdateAddress(ctx context.Context, id, address string) error {
	key, token := orderLock(id), newToken()
	err := s.rdb.SetArgs(ctx, key, token, redis.SetArgs{Mode: "NX", TTL: orderLockTTL}).Err()
	if errors.Is(err, redis.Nil) {
		return ErrBusy
	}
	if err != nil {
		return err
	}
	defer s.release(context.Background(), key, token)
	if err := s.rdb.HSet(ctx, "order:"+id, "address", address).Err(); err != nil {
		return err
	}
	return s.cache.Invalidate(ctx, id)
}

// ReserveStock holds a SKU while the warehouse confirms the reservation.
func (s *Service) ReserveStock(ctx context.Context, sku string) (func(), error) {
	key, token := "lock:sku:"+sku, newToken()
	ok, err := s.rdb.SetNX(ctx, key, token, 30).Result() // LV104: untyped 30 is 30ns: the lock is gone after 1 ms
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBusy
	}
	return func() { _ = s.release(context.Background(), key, token) }, nil
}
