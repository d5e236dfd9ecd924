// rueidis helpers with no lock names: paired through a caller.
package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

func take(ctx context.Context, c rueidis.Client, key, token string) error {
	return c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().Ex(time.Minute).Build()).Error()
}

func drop(ctx context.Context, c rueidis.Client, key string) {
	c.Do(ctx, c.B().Del().Key(key).Build()) // want `DEL of lock key key does not check the owner`
}

func job(ctx context.Context, c rueidis.Client, id, token string) error {
	if err := take(ctx, c, "job:"+id, token); err != nil {
		return err
	}
	defer drop(ctx, c, "job:"+id)
	return nil
}

// --- silent: a rate-limit counter ---

func hit(ctx context.Context, c rueidis.Client, key string) int64 {
	n, _ := c.Do(ctx, c.B().Incr().Key(key).Build()).AsInt64()
	if n == 1 {
		c.Do(ctx, c.B().Expire().Key(key).Seconds(60).Build())
	}
	return n
}

func limited(ctx context.Context, c rueidis.Client, user string) bool {
	return hit(ctx, c, "rate:"+user) > 10
}
