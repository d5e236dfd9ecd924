// Package getdel releases locks with GETDEL, one row of redisops' command
// table read by redigo, rueidis and go-redis' Do: an unconditional delete
// like DEL. It replies the value, not a count, so no fix rewrites it.
package getdel

import (
	"context"
	"errors"

	"github.com/gomodule/redigo/redis"
	redis9 "github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var errBusy = errors.New("busy")

func work() {}

// --- reported ---

func redigo(c redis.Conn, key, token string) error {
	if _, err := redis.String(c.Do("SET", key, token, "NX", "PX", 30000)); err != nil {
		return errBusy
	}
	defer c.Do("GETDEL", key) // want `GETDEL of lock key key does not check the owner`
	work()
	return nil
}

func rueidisBuilder(ctx context.Context, client rueidis.Client, key, token string) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(30000).Build()).Error(); err != nil {
		return errBusy
	}
	defer client.Do(ctx, client.B().Getdel().Key(key).Build()) // want `GETDEL of lock key key does not check the owner`
	work()
	return nil
}

func goRedisDo(ctx context.Context, rdb *redis9.Client, key, token string) (string, error) {
	if err := rdb.Do(ctx, "set", key, token, "nx", "px", 30000).Err(); err != nil {
		return "", errBusy
	}
	work()
	return rdb.Do(ctx, "getdel", key).Text() // want `GETDEL of lock key key does not check the owner`
}

// --- not reported ---

// GETDEL of a key that is not a lock.
func takeJob(c redis.Conn, key string) (string, error) {
	return redis.String(c.Do("GETDEL", key))
}
