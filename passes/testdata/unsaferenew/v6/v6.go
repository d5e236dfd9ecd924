package v6

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/go-redis/redis"
)

func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// go-redis v6 and v7 take no context.
func holdWhile(rdb *redis.Client, key string, ttl time.Duration, work <-chan func()) error {
	token := newToken()
	ok, err := rdb.SetNX(key, token, ttl).Result()
	if err != nil || !ok {
		return err
	}
	for job := range work {
		job()
		ok, err := rdb.Expire(key, ttl).Result() // want `Expire renews lock key in a loop`
		if err != nil || !ok {
			return err
		}
	}
	return nil
}

// --- silent ---

func refresh(rdb *redis.Client, keys []string) {
	for _, k := range keys {
		rdb.Expire(k, time.Hour)
	}
}
