package billing

import (
	"context"
	"time"

	"lockvet.test/xpkg/v9/lock"
)

// --- silent ---

// A scoped helper's error is fn's or its own, not the acquire's outcome:
// an ignored one is not LV105.
func Daily(ctx context.Context) {
	lock.WithLock(ctx, "daily", time.Minute, func() error { return nil })
}
