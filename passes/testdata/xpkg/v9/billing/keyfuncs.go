package billing

import (
	"context"
	"time"

	"lockvet.test/xpkg/v9/lock"
)

func Capture(ctx context.Context, no string) error {
	if _, err := lock.AcquirePayment(ctx, no, time.Minute); err != nil { // want `only the error of AcquirePayment is checked`
		return err
	}
	return nil
}

// Read in full: silent.
func Authorize(ctx context.Context, no string) error {
	ok, err := lock.AcquirePayment(ctx, no, time.Minute)
	if err != nil || !ok {
		return err
	}
	return nil
}
