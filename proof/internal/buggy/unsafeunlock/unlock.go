package unsafeunlock

import "context"

// Unlock releases the lock; it reports whether it deleted the key.
func (m *Mutex) Unlock(ctx context.Context) (bool, error) {
	n, err := m.RDB.Del(ctx, m.Key).Result()
	return n == 1, err
}
