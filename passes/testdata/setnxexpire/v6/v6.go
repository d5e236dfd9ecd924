package v6

import (
	"errors"
	"strconv"
	"time"

	"github.com/go-redis/redis"
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

// The takeover of an expired timestamp lock (go-redis v6, no context):
// the GETSET and the TTL become one script, its reply read as a string.
func takeover(rdb redis.UniversalClient, key string, value int64) error {
	now := time.Now().UnixNano()
	newTimeout, err := rdb.GetSet(key, value).Result()
	if err != nil {
		return err
	}
	if cur, _ := strconv.ParseInt(newTimeout, 10, 64); now > cur {
		rdb.Expire(key, time.Duration(value+1)) // want `Expire after GetSet, which clears the TTL of key`
		return nil
	}
	return errors.New("busy")
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
