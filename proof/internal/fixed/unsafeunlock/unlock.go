package unsafeunlock

import "context"

// Unlock releases the lock; it reports whether it deleted the key.
func (m *Mutex) Unlock(ctx context.Context) (bool, error) {
	n, err := unlockScript.Run(ctx, m.RDB, []string{m.Key}, m.Token).Int64()
	return n == 1, err
}
