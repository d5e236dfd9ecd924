// Package rueidis is the rueidis client proof shape: acquire, release and
// renew of one lock, under proof/internal/adapters/buggy as lockvet
// reports them, under proof/internal/adapters/fixed as lockvet -fix
// rewrites them.
package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	Client rueidis.Client
	Key    string
	Token  string
	TTL    time.Duration
}

// TryLock takes the lock if it is free.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	ok, err := m.Client.Do(ctx, m.Client.B().Setnx().Key(m.Key).Value(m.Token).Build()).AsBool()
	if err != nil {
		return false, err
	}
	if ok {
		m.Client.Do(ctx, m.Client.B().Pexpire().Key(m.Key).Milliseconds(m.TTL.Milliseconds()).Build())
	}
	return ok, nil
}

// Unlock releases the lock; it reports whether it deleted the key.
func (m *Mutex) Unlock(ctx context.Context) (bool, error) {
	n, err := m.Client.Do(ctx, m.Client.B().Del().Key(m.Key).Build()).AsInt64()
	return n == 1, err
}

// Refresh extends the lock by m.TTL; it reports whether it did.
func (m *Mutex) Refresh(ctx context.Context) (bool, error) {
	return m.Client.Do(ctx, m.Client.B().Pexpire().Key(m.Key).Milliseconds(m.TTL.Milliseconds()).Build()).AsBool()
}
