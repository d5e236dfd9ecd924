// LV104 through declared wrappers.
package ttlunit

import (
	"context"
	"time"

	"lockvet.test/wrappers/store"
)

// A bare number where the wrapper takes a time.Duration: 30ns.
func jobs(ctx context.Context, st *store.Store, key, token string) (bool, error) {
	return st.TryLock(ctx, key, token, 30) // want `30`
}

// --- silent ---

func withUnit(ctx context.Context, st *store.Store, key, token string) (bool, error) {
	return st.TryLock(ctx, key, token, 30*time.Second)
}
