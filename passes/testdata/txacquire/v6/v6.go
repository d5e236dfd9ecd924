package v6

import (
	"time"

	"github.com/go-redis/redis"
)

// v6 has no context argument.
func acquire(rdb *redis.Client, key, token string) error {
	_, err := rdb.TxPipelined(func(pipe redis.Pipeliner) error {
		pipe.SetNX(key, token, 0)
		pipe.Expire(key, 30*time.Second) // want `Expire in the same transaction as SetNX runs even when it lost, on another owner's lock key; pass the TTL to SetNX`
		return nil
	})
	return err
}

// --- silent ---

func pipelined(rdb *redis.Client, key, token string) error {
	_, err := rdb.Pipelined(func(pipe redis.Pipeliner) error {
		pipe.SetNX(key, token, 30*time.Second)
		pipe.Expire(key+":stats", time.Hour)
		return nil
	})
	return err
}
