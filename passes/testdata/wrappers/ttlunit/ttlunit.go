// LV104 through declared wrappers.
package ttlunit

import (
	"context"
	"time"

	"lockvet.test/wrappers/store"
)

// A bare number where the wrapper takes a time.Duration: 30ns.
func jobs(ctx context.Context, st *store.Store, key, token string) (bool, error) {
	return st.TryLock(ctx, key, token, 30) // want `TTL 30 is 30ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; write 30 \* time\.Second or 30 \* time\.Millisecond`
}

// --- silent ---

func withUnit(ctx context.Context, st *store.Store, key, token string) (bool, error) {
	return st.TryLock(ctx, key, token, 30*time.Second)
}
