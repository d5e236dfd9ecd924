package conv

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// The key converted between string types where it is deleted is the
// lock's key: string(key) sends the same bytes as key.

type convLocker struct{ rdb *redis.Client }

func (l *convLocker) Lock(ctx context.Context, key []byte) bool {
	return l.rdb.SetNX(ctx, string(key), "1", time.Minute).Val()
}

func (l *convLocker) Unlock(ctx context.Context, key []byte) {
	l.rdb.Del(ctx, string(key)) // want `Del of lock key string\(key\) does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)`
}

func convSameFunc(ctx context.Context, rdb *redis.Client, key jobName) {
	if !rdb.SetNX(ctx, string(key), "1", time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, string([]byte(key))) // want `Del of lock key string\(\[\]byte\(key\)\) does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)`
}

type jobName string

// --- silent ---

// A cache entry of the same name, converted: no lock is taken on it.
func convCache(ctx context.Context, rdb *redis.Client, key jobName) {
	rdb.Set(ctx, string(key), "v", time.Minute)
	rdb.Del(ctx, string(key))
}
