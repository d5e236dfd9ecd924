package rueidis

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/rueidis"
)

// Keys built in a local variable inside the helpers.

func LockInvoice(ctx context.Context, c rueidis.Client, id, token string) error {
	key := "invoice:" + id
	return c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Ex(time.Minute).Build()).Error()
}

func UnlockInvoice(ctx context.Context, c rueidis.Client, id string) error {
	key := "invoice:" + id
	return c.Do(ctx, c.B().Del().Key(key).Build()).Error() // want `DEL of lock key key does not check the owner`
}

func claimTask(ctx context.Context, c rueidis.Client, tenant, token string) error {
	k := fmt.Sprintf("task:%s", tenant)
	return c.Do(ctx, c.B().Set().Key(k).Value(token).Nx().Px(30*time.Second).Build()).Error()
}

func finishTask(ctx context.Context, c rueidis.Client, tenant string) {
	k := fmt.Sprintf("task:%s", tenant)
	c.Do(ctx, c.B().Del().Key(k).Build()) // want `DEL of lock key k does not check the owner`
}

func runTask(ctx context.Context, c rueidis.Client, tenant, token string) error {
	if err := claimTask(ctx, c, tenant, token); err != nil {
		return err
	}
	defer finishTask(ctx, c, tenant)
	return nil
}

// --- silent: a cache with local keys ---

func putProfile(ctx context.Context, c rueidis.Client, id, v string) {
	key := "profile:" + id
	c.Do(ctx, c.B().Set().Key(key).Value(v).Ex(time.Hour).Build())
}

func dropProfile(ctx context.Context, c rueidis.Client, id string) {
	key := "profile:" + id
	c.Do(ctx, c.B().Del().Key(key).Build())
}

func profile(ctx context.Context, c rueidis.Client, id string) {
	putProfile(ctx, c, id, "x")
	dropProfile(ctx, c, id)
}

// --- silent: a rate limiter with a local key ---

func hitLocal(ctx context.Context, c rueidis.Client, user string) int64 {
	key := "rl:" + user
	n, _ := c.Do(ctx, c.B().Incr().Key(key).Build()).AsInt64()
	if n == 1 {
		c.Do(ctx, c.B().Expire().Key(key).Seconds(60).Build())
	}
	return n
}

func limitedLocal(ctx context.Context, c rueidis.Client, user string) bool {
	return hitLocal(ctx, c, user) > 10
}
