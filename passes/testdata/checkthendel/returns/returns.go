package returns

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Mutex struct {
	rdb   *redis.Client
	key   string
	token string
}

func (m *Mutex) Lock(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, m.key, m.token, time.Minute).Result()
}

// The if returns and a statement follows it: unwrapping the if would leave
// `return nil` unreachable, so no fix.
func (m *Mutex) Unlock(ctx context.Context) error {
	if m.rdb.Get(ctx, m.key).Val() == m.token {
		return m.rdb.Del(ctx, m.key).Err() // want `Del of m\.key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
	return nil
}

// The if is the last statement: unwrapping is fine.
func (m *Mutex) Release(ctx context.Context) {
	if m.rdb.Get(ctx, m.key).Val() == m.token {
		m.rdb.Del(ctx, m.key) // want `Del of m\.key after a separate GET compare can delete another holder's lock; compare and delete in one step`
	}
}
