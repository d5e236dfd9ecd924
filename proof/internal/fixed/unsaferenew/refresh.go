package unsaferenew

import "context"

// Refresh extends the lock by m.TTL.
func (m *Mutex) Refresh(ctx context.Context) error {
	return renewScript.Run(ctx, m.RDB, []string{m.Key}, m.Token, m.TTL.Milliseconds()).Err()
}
