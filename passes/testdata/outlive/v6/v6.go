package v6

import (
	"time"

	"github.com/go-redis/redis"
)

// Waiting three minutes for a result under a one-minute lock.
func wait(rdb *redis.Client, key, token string, done <-chan struct{}) {
	if !rdb.SetNX(key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(key)
	select {
	case <-done:
	case <-time.After(3 * time.Minute): // want `waits up to 3m0s \(After\) while holding lock key, whose TTL is 1m0s`
	}
}

// --- silent ---

// The wait is for a busy lock, before returning.
func busy(rdb *redis.Client, key, token string) bool {
	if !rdb.SetNX(key, token, time.Minute).Val() {
		<-time.After(2 * time.Minute)
		return false
	}
	defer rdb.Del(key)
	return true
}
