package v7

import (
	"time"

	"github.com/go-redis/redis/v7"
)

// A 30 s lock, and a minute's pause inside it.
func throttle(rdb *redis.Client, key, token string) {
	if !rdb.SetNX(key, token, 30*time.Second).Val() {
		return
	}
	time.Sleep(time.Minute) // want `time.Sleep\(1m0s\) while holding lock key, whose TTL is 30s`
	rdb.Del(key)
}

// --- silent ---

// A pause shorter than the lock.
func short(rdb *redis.Client, key, token string) {
	if !rdb.SetNX(key, token, 30*time.Second).Val() {
		return
	}
	time.Sleep(time.Second)
	rdb.Del(key)
}
