package checkthendel

import "context"

// Unlock releases the lock if this Mutex still holds it.
func (m *Mutex) Unlock(ctx context.Context) error {
	if m.RDB.Get(ctx, m.Key).Val() == m.Token {
		if err := m.RDB.Del(ctx, m.Key).Err(); err != nil {
			return err
		}
	}
	return nil
}
