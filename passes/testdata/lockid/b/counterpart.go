package b

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb *redis.Client

// Package-level counterparts, the key a parameter.
func Lock(ctx context.Context, key string) (bool, error) {
	return rdb.SetNX(ctx, key, "1", 10*time.Second).Result()
}

func Unlock(ctx context.Context, key string) error {
	return rdb.Del(ctx, key).Err() // want `lock key: counterpart`
}

func Refresh(ctx context.Context, key string) error {
	return rdb.Expire(ctx, key, 10*time.Second).Err() // want `lock key: counterpart`
}

// Prefix and parameter, the parameter named differently: the same shape
// already (a constant prefix).
func lockOrder(ctx context.Context, id int64) bool {
	return rdb.SetNX(ctx, "order:"+strconv.FormatInt(id, 10), "1", time.Minute).Val()
}

func unlockOrder(ctx context.Context, orderID int64) {
	rdb.Del(ctx, "order:"+strconv.FormatInt(orderID, 10)) // want `lock key: same shape`
}

// A Sprintf template with the parameter, at another position.
func AcquireJob(ctx context.Context, id int, owner string) bool {
	return rdb.SetNX(ctx, fmt.Sprintf("job:%d", id), owner, time.Minute).Val()
}

func ReleaseJob(ctx context.Context, id int) {
	rdb.Del(ctx, fmt.Sprintf("job:%d", id)) // want `lock key: same shape`
}

// Methods of one type, the key a parameter.
type Locker struct{ rdb *redis.Client }

func (l *Locker) TryLock(ctx context.Context, key, token string) bool {
	return l.rdb.SetNX(ctx, key, token, time.Minute).Val()
}

func (l *Locker) Unlock(ctx context.Context, key string) {
	l.rdb.Del(ctx, key) // want `lock key: counterpart`
}

// --- not counterparts ---

// Another type's Unlock.
type Other struct{ rdb *redis.Client }

func (o *Other) Unlock(ctx context.Context, key string) {
	o.rdb.Del(ctx, key)
}

// Another template: the key is formatted differently.
func unlockOrderByName(ctx context.Context, name string) {
	rdb.Del(ctx, fmt.Sprintf("order:%s", name))
}

// Names that are not counterparts.
func Set(ctx context.Context, key string) { rdb.SetNX(ctx, key, "1", time.Minute) }

func Del(ctx context.Context, key string) { rdb.Del(ctx, key) }

// A release helper whose key is reassigned.
func UnlockJob(ctx context.Context, key string) {
	key = "job:" + key
	rdb.Del(ctx, key)
}

func LockJob(ctx context.Context, key string) bool {
	return rdb.SetNX(ctx, key, "1", time.Minute).Val()
}
