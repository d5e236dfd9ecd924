package a

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const reportLock = "lock:report"

func sameFunc(ctx context.Context, rdb *redis.Client, key string) {
	if !rdb.SetNX(ctx, key, "t", time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, key) // want `lock key: same function`
	release := func() {
		rdb.Del(ctx, key) // want `lock key: same function`
	}
	release()
}

func constKey(ctx context.Context, rdb *redis.Client) {
	rdb.SetNX(ctx, reportLock, "t", time.Minute)
}

func constKeyRelease(ctx context.Context, rdb *redis.Client) {
	rdb.Del(ctx, reportLock) // want `lock key: same shape`
}

type Mutex struct {
	rdb *redis.Client
	key string
}

func (m *Mutex) Lock(ctx context.Context) bool {
	return m.rdb.SetNX(ctx, m.key, "t", time.Minute).Val()
}

func (m *Mutex) Unlock(ctx context.Context) {
	m.rdb.Del(ctx, m.key) // want `lock key: same shape`
}

func jobLock(ctx context.Context, rdb *redis.Client, id int) {
	rdb.SetNX(ctx, fmt.Sprintf("lock:job:%d", id), "t", time.Minute)
}

func jobUnlock(ctx context.Context, rdb *redis.Client, id int) {
	rdb.Del(ctx, fmt.Sprintf("lock:job:%d", id)) // want `lock key: same shape`
}

func release(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key) // want `lock key: via helper`
}

func withHelper(ctx context.Context, rdb *redis.Client, key string) {
	if !rdb.SetNX(ctx, key, "t", time.Minute).Val() {
		return
	}
	defer release(ctx, rdb, key) // want `lock key: same function`
}

// --- not lock keys ---

func cacheDel(ctx context.Context, rdb *redis.Client, userID int) {
	rdb.Del(ctx, fmt.Sprintf("user:%d", userID))
	rdb.Del(ctx, "session:abc")
}

func evict(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key) // a helper nobody calls with a lock key
}

func useEvict(ctx context.Context, rdb *redis.Client) {
	evict(ctx, rdb, "cache:x")
}

func otherLocal(ctx context.Context, rdb *redis.Client, key, other string) {
	rdb.SetNX(ctx, key, "t", time.Minute)
	rdb.Del(ctx, other)
}

func delBeforeAcquire(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Del(ctx, key)
	rdb.SetNX(ctx, key, "t", time.Minute)
}
