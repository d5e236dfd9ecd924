package rueidis

// rueidiscompat, the go-redis-shaped adapter over rueidis: the go-redis
// adapter reads it, with rueidis's nil reply and IsRedisNil.

import (
	"context"
	"time"

	"github.com/redis/rueidis/rueidiscompat"
)

type compatMutex struct {
	c          rueidiscompat.Cmdable
	key, token string
	ttl        time.Duration
}

func (m *compatMutex) TryLock(ctx context.Context) (bool, error) {
	return m.c.SetNX(ctx, m.key, m.token, m.ttl).Result()
}

func (m *compatMutex) Refresh(ctx context.Context) (bool, error) {
	return m.c.PExpire(ctx, m.key, m.ttl).Result() // want `PExpire renews lock m.key in Refresh`
}

// --- silent ---

var compatRenew = rueidiscompat.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

func (m *compatMutex) Extend(ctx context.Context) (bool, error) {
	return compatRenew.Run(ctx, m.c, []string{m.key}, m.token, m.ttl.Milliseconds()).Bool()
}
