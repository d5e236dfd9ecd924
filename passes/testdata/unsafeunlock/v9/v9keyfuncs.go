package v9

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Keys built by a function of the package, called again at the release.

func orderLock(id string) string { return fmt.Sprintf("order:%s:lock", id) }

type billing struct {
	rdb    *redis.Client
	prefix string
}

func (b *billing) runKey(id string) string { return b.prefix + ":run:" + id }

// --- reported ---

func settleOrder(ctx context.Context, rdb *redis.Client, id string) error {
	token := newToken()
	ok, err := rdb.SetNX(ctx, orderLock(id), token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, orderLock(id)) // want `Del of lock key orderLock\(id\) does not check the owner`
	return nil
}

func (b *billing) run(ctx context.Context, id string) error {
	token := newToken()
	ok, err := b.rdb.SetNX(ctx, b.runKey(id), token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer b.rdb.Del(ctx, b.runKey(id)) // want `Del of lock key b.runKey\(id\) does not check the owner`
	return nil
}

// --- silent ---

// A key function given only constants may give a new key each call.
func scratchKey(n int) string { return fmt.Sprintf("scratch:%d:%d", n, time.Now().UnixNano()) }

func scratch(ctx context.Context, rdb *redis.Client) {
	if ok, _ := rdb.SetNX(ctx, scratchKey(8), newToken(), time.Minute).Result(); ok {
		rdb.Del(ctx, scratchKey(8))
	}
}

// Another job's key, from a key function that names no lock: not the
// lock this function took.
func jobKey(id string) string { return "job:" + id }

func startTwo(ctx context.Context, rdb *redis.Client, id, other string) error {
	ok, err := rdb.SetNX(ctx, jobKey(id), newToken(), time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	rdb.Del(ctx, jobKey(other))
	return nil
}

// Another biller's key: the same method on another receiver.
func (b *billing) handOver(ctx context.Context, next *billing, id string) error {
	ok, err := b.rdb.SetNX(ctx, b.runKey(id), newToken(), time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	next.rdb.Del(ctx, next.runKey(id))
	return nil
}
