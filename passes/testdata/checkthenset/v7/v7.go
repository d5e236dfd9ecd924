package v7

import (
	"time"

	"github.com/go-redis/redis/v7"
)

// go-redis v7 (no context): reported, fixed to SetNX.
func lockJob(rdb *redis.Client, job, token string) bool {
	key := "lock:job:" + job
	err := rdb.Get(key).Err()
	if err != redis.Nil {
		return false
	}
	rdb.Set(key, token, 5*time.Minute) // want `Set of key after a GET found it missing`
	return true
}

func unlockJob(rdb *redis.Client, job string) {
	rdb.Del("lock:job:" + job)
}

// --- silent ---

// A cache fill.
func cached(rdb *redis.Client, key string, fill func() string) string {
	v, err := rdb.Get(key).Result()
	if err == redis.Nil {
		v = fill()
		rdb.Set(key, v, time.Minute)
	}
	return v
}
