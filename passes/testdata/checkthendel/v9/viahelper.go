package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// GET, compare, then a helper that deletes: the same check-then-delete,
// with the DEL one call away.
func delKey(ctx context.Context, rdb *redis.Client, key string) error {
	return rdb.Del(ctx, key).Err()
}

func (m *Mutex) lockField(ctx context.Context) bool {
	return m.rdb.SetNX(ctx, m.key, m.token, time.Minute).Val()
}

func (m *Mutex) UnlockViaHelper(ctx context.Context, rdb *redis.Client) error {
	if rdb.Get(ctx, m.key).Val() != m.token {
		return ErrNotOwner
	}
	return delKey(ctx, rdb, m.key) // want `delKey deletes m\.key \(Del\) after a separate GET compare, so it can delete another holder's lock; compare and delete in one step`
}

// The lock named by its function, the key built in place.
func releaseJob(ctx context.Context, rdb *redis.Client, id, token string) {
	key := "lock:job:" + id
	if v, _ := rdb.Get(ctx, key).Result(); v == token {
		_ = delKey(ctx, rdb, key) // want `delKey deletes key \(Del\) after a separate GET compare, so it can delete another holder's lock; compare and delete in one step`
	}
}

// --- silent ---

// A one-time code deleted by the helper: not a lock.
func verifyViaHelper(ctx context.Context, rdb *redis.Client, phone, input string) bool {
	key := "sms:code:" + phone
	if rdb.Get(ctx, key).Val() != input {
		return false
	}
	_ = delKey(ctx, rdb, key)
	return true
}

// The helper called with another key than the one compared.
func (m *Mutex) otherKeyViaHelper(ctx context.Context, rdb *redis.Client) {
	if rdb.Get(ctx, m.key).Val() == m.token {
		_ = delKey(ctx, rdb, m.key+":data")
	}
}
