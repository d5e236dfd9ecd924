package v7

import (
	"time"

	"github.com/go-redis/redis/v7"
)

// SETNX, then EXPIRE only if acquired.
func acquire(rdb *redis.Client, key, token string) (bool, error) {
	ok, err := rdb.SetNX(key, token, 0).Result()
	if err != nil || !ok {
		return false, err
	}
	rdb.Expire(key, 30*time.Second) // want `Expire after SetNX acquired key without a TTL: a crash in between leaves the lock held forever; pass the TTL to SetNX`
	return true, nil
}

// --- silent ---

// The TTL in the acquire; another key expired after it.
func correct(rdb *redis.Client, key, token string) (bool, error) {
	ok, err := rdb.SetNX(key, token, 30*time.Second).Result()
	if err != nil || !ok {
		return false, err
	}
	rdb.Expire(key+":meta", time.Minute)
	return true, nil
}
