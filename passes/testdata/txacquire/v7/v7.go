package v7

import (
	"time"

	"github.com/go-redis/redis/v7"
)

// v7 has no context argument.
func acquire(rdb *redis.Client, key, token string, ttl time.Duration) (bool, error) {
	var ok *redis.BoolCmd
	_, err := rdb.TxPipelined(func(pipe redis.Pipeliner) error {
		ok = pipe.SetNX(key, token, 0)
		pipe.Expire(key, ttl) // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
		return nil
	})
	return ok.Val(), err
}

// Pipeline value sent with Exec().
func acquireValue(rdb redis.UniversalClient, key string, ttl time.Duration) bool {
	pipe := rdb.Pipeline()
	ok := pipe.SetNX(key, "1", 0)
	pipe.Expire(key, ttl) // want `Expire in the same pipeline as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
	pipe.Incr("lock:count")
	pipe.Exec()
	return ok.Val()
}

// --- silent ---

func cacheWrite(rdb *redis.Client, key, val string) {
	rdb.Pipelined(func(pipe redis.Pipeliner) error {
		pipe.Set(key, val, 0)
		pipe.Expire(key, time.Hour)
		return nil
	})
}

func correct(rdb *redis.Client, key string, ttl time.Duration) {
	rdb.TxPipelined(func(pipe redis.Pipeliner) error {
		pipe.SetNX(key, "1", ttl)
		return nil
	})
}
