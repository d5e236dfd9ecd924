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

// A constant value, no TTL, deleted when done (LV103's lock): reported.
func once(rdb *redis.Client, id string) {
	if rdb.SetNX("done:"+id, "1", 0).Val() {
		defer rdb.Del("done:" + id) // want `Del of lock key "done:" \+ id does not check the owner, and every holder writes "1": once the lock has its TTL \(LV103\)`
	}
}

// --- silent ---

// A marker with no TTL, deleted only when the work failed so that a
// retry can claim it: no holder's lock to delete.
func claim(rdb *redis.Client, id string, fn func() error) error {
	if !rdb.SetNX("claimed:"+id, "1", 0).Val() {
		return nil
	}
	if err := fn(); err != nil {
		rdb.Del("claimed:" + id)
		return err
	}
	return nil
}
