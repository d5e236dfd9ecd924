// Package jobs calls a scoped lock helper (lock.WithLock).
package jobs

import (
	"context"
	"time"

	"lockvet.test/xpkg/v9/lock"
)

func Nightly(ctx context.Context) error {
	return lock.WithLock(ctx, "nightly", 5, func() error { return nil }) // want `TTL 5 is 5ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; write 5 \* time\.Second or 5 \* time\.Millisecond`
}

// --- silent ---

func Hourly(ctx context.Context) error {
	return lock.WithLock(ctx, "hourly", 5*time.Second, func() error { return nil })
}
