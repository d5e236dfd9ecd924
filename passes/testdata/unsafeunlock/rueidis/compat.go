package rueidis

// rueidiscompat, the go-redis-shaped adapter over rueidis: the go-redis
// adapter reads it, with rueidis's nil reply and IsRedisNil.

import (
	"context"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

var compatUnlock = rueidiscompat.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// --- silent ---

// The compare-and-delete script, as a rueidiscompat script.
func compatScripted(ctx context.Context, client rueidis.Client, key string) {
	c := rueidiscompat.NewAdapter(client)
	token := newToken()
	if !c.SetNX(ctx, key, token, 30*time.Second).Val() {
		return
	}
	defer compatUnlock.Run(ctx, c, []string{key}, token)
}
