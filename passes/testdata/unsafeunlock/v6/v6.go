package v6

import (
	"time"

	"github.com/go-redis/redis"
)

func withLock(rdb *redis.Client, key, token string, fn func()) {
	if !rdb.SetNX(key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(key) // want `Del of lock key key does not check the owner`
	fn()
}

func withClusterLock(rdb *redis.ClusterClient, key, token string, fn func()) error {
	ok, err := rdb.SetNX(key, token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	fn()
	return rdb.Unlink(key).Err() // want `Unlink of lock key key does not check the owner`
}

// --- silent ---

// A constant-valued marker with no TTL: it cannot expire under its owner.
func once(rdb *redis.Client, id string) {
	if rdb.SetNX("done:"+id, "1", 0).Val() {
		defer rdb.Del("done:" + id)
	}
}
