// Package rueidis: lock templates for github.com/redis/rueidis.
package rueidis

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"

	"github.com/lockvet/lockvet/internal/lua"
)

var (
	unlockScript = rueidis.NewLuaScript(lua.UnlockSrc)
	renewScript  = rueidis.NewLuaScript(lua.RenewSrc)
)

// Mutex is a lock on one key; each Mutex has a token of its own.
type Mutex struct {
	Client rueidis.Client
	Key    string
	Token  string
	TTL    time.Duration
}

// TryLock takes the lock if it is free: SET key token NX PX ttl, whose
// nil reply means busy.
func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	err := m.Client.Do(ctx, m.Client.B().Set().Key(m.Key).Value(m.Token).Nx().PxMilliseconds(m.TTL.Milliseconds()).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return false, nil
	}
	return err == nil, err
}

// Unlock deletes the key only while it holds m.Token.
func (m *Mutex) Unlock(ctx context.Context) (bool, error) {
	n, err := unlockScript.Exec(ctx, m.Client, []string{m.Key}, []string{m.Token}).AsInt64()
	return n == 1, err
}

// Refresh sets the TTL to m.TTL only while the key holds m.Token.
func (m *Mutex) Refresh(ctx context.Context) (bool, error) {
	n, err := renewScript.Exec(ctx, m.Client, []string{m.Key}, []string{m.Token, strconv.FormatInt(m.TTL.Milliseconds(), 10)}).AsInt64()
	return n == 1, err
}
