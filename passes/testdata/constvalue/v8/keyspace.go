package v8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"

	"lockvet.test/keyspace"
)

const (
	meterLockFmt  = "meter:%d:read:lock"
	meterCacheFmt = "meter:%d:last"
)

type meter struct {
	rdb *redis.Client
	id  int
}

// A read lock on a meter, its key from a shared key function, taken in
// one method with a constant and dropped in another.
func (m *meter) begin(ctx context.Context) (bool, error) {
	return m.rdb.SetNX(ctx, keyspace.Key(meterLockFmt, m.id), "on", 5*time.Second).Result() // want `lock keyspace.Key\(meterLockFmt, m.id\) is acquired with the constant "on"`
}

func (m *meter) abandon(ctx context.Context) {
	m.rdb.Del(ctx, keyspace.Key(meterLockFmt, m.id))
}

// --- silent ---

// The last reading, cached and evicted through the same key function.
func (m *meter) remember(ctx context.Context, v string) {
	m.rdb.Set(ctx, keyspace.Key(meterCacheFmt, m.id), v, time.Minute)
}

func (m *meter) forget(ctx context.Context) {
	m.rdb.Del(ctx, keyspace.Key(meterCacheFmt, m.id))
}
