// Package pkglevel calls Redis, directly and through helpers that
// analyzer/wrappers_test.go declares, in package-level initializers, where
// no function encloses the call. No check reads those calls (there is no
// flow to follow and no caller to pair them with); every check must
// still run on the package without failing.
package pkglevel

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

// Grab takes key.
func Grab(key, token string, ttl time.Duration) bool {
	ok, _ := rdb.SetNX(context.Background(), key, token, ttl).Result()
	return ok
}

// Touch sets key's TTL.
func Touch(key string, ttl time.Duration) error {
	return rdb.Expire(context.Background(), key, ttl).Err()
}

// Take deletes key.
func Take(key string) error { return rdb.Del(context.Background(), key).Err() }

// Give deletes key if it holds token.
func Give(key, token string) error { return nil }

var (
	_ = Grab("lock:a", "x", 0)
	_ = Touch("lock:a", time.Minute)
	_ = Give("lock:a", "x")
	_ = Take("lock:a")
	_ = rdb.SetNX(context.Background(), "lock:b", "x", 0)
	_ = rdb.Expire(context.Background(), "lock:b", time.Minute)
	_ = rdb.Get(context.Background(), "lock:b").Val() == "x" && rdb.Del(context.Background(), "lock:b").Err() == nil
)
