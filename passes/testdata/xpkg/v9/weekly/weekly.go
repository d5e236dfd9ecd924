// Package weekly does long work after a scoped lock helper returned.
package weekly

import (
	"context"
	"time"

	"lockvet.test/xpkg/v9/lock"
)

// --- silent ---

// Work after the helper returned is not under its lock (LV106).
func Weekly(ctx context.Context) error {
	if err := lock.WithLock(ctx, "weekly", time.Second, func() error { return nil }); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Hour)
	defer cancel()
	<-ctx.Done()
	return nil
}
