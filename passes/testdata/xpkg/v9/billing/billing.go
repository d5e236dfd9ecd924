package billing

import (
	"context"
	"time"

	"lockvet.test/xpkg/v9/lock"
)

func Charge(ctx context.Context, id string) error {
	if _, err := lock.Lock(ctx, "bill:"+id, time.Minute); err != nil { // want `only the error of Lock is checked`
		return err
	}
	return nil
}

// The outcome read in full: silent.
func Refund(ctx context.Context, id string) error {
	ok, err := lock.Lock(ctx, "refund:"+id, time.Minute)
	if err != nil || !ok {
		return err
	}
	return nil
}
