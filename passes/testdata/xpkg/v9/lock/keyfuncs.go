package lock

import (
	"context"
	"fmt"
	"time"
)

func paymentKey(no string) string { return fmt.Sprintf("payment:%s", no) }

// AcquirePayment builds its key with a key function of the package.
func AcquirePayment(ctx context.Context, no string, ttl time.Duration) (bool, error) { // want AcquirePayment:"acquire-funcs:key=1,ttl=2,unit=duration"
	return rdb.SetNX(ctx, paymentKey(no), "1", ttl).Result()
}
