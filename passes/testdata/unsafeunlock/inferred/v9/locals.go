package v9

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Keys built in a local variable inside the helper, the commonest shape
// in services: the template is the inline one, and the pair is found as
// if the key were written in the call.

func LockInvoice(ctx context.Context, id, token string) (bool, error) {
	key := "invoice:" + id
	return rdb.SetNX(ctx, key, token, time.Minute).Result()
}

func UnlockInvoice(ctx context.Context, id string) error {
	key := "invoice:" + id
	return rdb.Del(ctx, key).Err() // want `Del of lock key key does not check the owner`
}

// No lock names; a local through a local, and fmt.Sprintf.
func claimTask(ctx context.Context, c *redis.Client, tenant string, token string) bool {
	name := fmt.Sprintf("task:%s", tenant)
	k := name
	return c.SetNX(ctx, k, token, 30*time.Second).Val()
}

func finishTask(ctx context.Context, c *redis.Client, tenant string) {
	k := fmt.Sprintf("task:%s", tenant)
	c.Del(ctx, k) // want `Del of lock key k does not check the owner`
}

func runTask(ctx context.Context, c *redis.Client, tenant, token string) {
	if !claimTask(ctx, c, tenant, token) {
		return
	}
	defer finishTask(ctx, c, tenant)
}

// --- silent ---

// A cache behind helpers with local keys: Set/Get/Del.
func putProfile(ctx context.Context, id, v string) {
	key := "profile:" + id
	rdb.Set(ctx, key, v, time.Hour)
}

func getProfile(ctx context.Context, id string) string {
	key := "profile:" + id
	return rdb.Get(ctx, key).Val()
}

func dropProfile(ctx context.Context, id string) {
	key := "profile:" + id
	rdb.Del(ctx, key)
}

func profile(ctx context.Context, id string) string {
	putProfile(ctx, id, "x")
	defer dropProfile(ctx, id)
	return getProfile(ctx, id)
}

// An idempotency marker with a local key, never released; its cleanup
// helper deletes another key.
func markPaid(ctx context.Context, id string) bool {
	key := "paid:" + id
	return rdb.SetNX(ctx, key, 1, 24*time.Hour).Val()
}

func clearReceipt(ctx context.Context, id string) {
	key := "receipt:" + id
	rdb.Del(ctx, key)
}

func pay(ctx context.Context, id string) {
	if markPaid(ctx, id) {
		clearReceipt(ctx, id)
	}
}

// The local is written twice: no template, no pair.
func takeEither(ctx context.Context, id, token string, urgent bool) bool {
	key := "either:" + id
	if urgent {
		key = "urgent:" + id
	}
	return rdb.SetNX(ctx, key, token, time.Minute).Val()
}

func dropEither(ctx context.Context, id string) {
	key := "other:" + id
	rdb.Del(ctx, key)
}
