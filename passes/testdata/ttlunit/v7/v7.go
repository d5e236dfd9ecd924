package v7

import (
	"time"

	"github.com/go-redis/redis/v7"
)

// v7 sends SET … PX 0 for a TTL below 1 ms: the acquire fails.
func acquire(rdb *redis.Client, key, token string) (bool, error) {
	return rdb.SetNX(key, token, 30).Result() // want `TTL 30 is 30ns`
}

// --- silent ---

func correct(rdb *redis.Client, key, token string) (bool, error) {
	return rdb.SetNX(key, token, 30*time.Second).Result()
}
