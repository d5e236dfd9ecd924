package checkthendel

import "context"

// Unlock releases the lock if this Mutex still holds it.
func (m *Mutex) Unlock(ctx context.Context) error {
	if err := unlockScript.Run(ctx, m.RDB, []string{m.Key}, m.Token).Err(); err != nil {
		return err
	}
	return nil
}
