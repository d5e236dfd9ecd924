package v7

import (
	"time"

	"github.com/go-redis/redis/v7"
)

type Mutex struct {
	rdb        *redis.Client
	key, token string
	ttl        time.Duration
}

func (m *Mutex) TryLock() (bool, error) {
	return m.rdb.SetNX(m.key, m.token, m.ttl).Result()
}

func (m *Mutex) Refresh() (bool, error) {
	return m.rdb.PExpire(m.key, m.ttl).Result() // want `PExpire renews lock m.key in Refresh`
}

// --- silent ---

var renew = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

func (m *Mutex) Extend() (bool, error) {
	n, err := renew.Run(m.rdb, []string{m.key}, m.token, m.ttl.Milliseconds()).Int64()
	return n == 1, err
}
