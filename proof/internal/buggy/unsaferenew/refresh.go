package unsaferenew

import "context"

// Refresh extends the lock by m.TTL.
func (m *Mutex) Refresh(ctx context.Context) error {
	return m.RDB.PExpire(ctx, m.Key, m.TTL).Err()
}
