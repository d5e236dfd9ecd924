// Lock helpers of one package: a constant value in the acquire helper, the
// release in its counterpart.
package helpers

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
)

var rdb *redis.Client

// --- reported ---

func Lock(ctx context.Context, key string) (bool, error) {
	return rdb.SetNX(ctx, key, "1", 10*time.Second).Result() // want `lock key is acquired with the constant "1" and released, so no owner check can tell holders apart; use a random token`
}

func Unlock(ctx context.Context, key string) error {
	return rdb.Del(ctx, key).Err()
}

type Conn struct{ c redigo.Conn }

func (c *Conn) Lock(key string) (bool, error) {
	r, err := c.c.Do("SET", key, "locked", "NX", "EX", 30) // want `lock key is acquired with the constant "locked"`
	return r != nil, err
}

func (c *Conn) Unlock(key string) {
	c.c.Do("DEL", key)
}

var client rueidis.Client

func Obtain(ctx context.Context, key string) error {
	return client.Do(ctx, client.B().Set().Key(key).Value("x").Nx().ExSeconds(30).Build()).Error() // want `lock key is acquired with the constant "x"`
}

func Release(ctx context.Context, key string) error {
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error()
}

// --- silent ---

// An idempotency marker: SET NX with a constant, never released.
func MarkProcessed(ctx context.Context, key string) (bool, error) {
	return rdb.SetNX(ctx, key, "1", 24*time.Hour).Result()
}

// A token in the acquire helper.
func LockJob(ctx context.Context, key, token string) bool {
	return rdb.SetNX(ctx, key, token, time.Minute).Val()
}

func UnlockJob(ctx context.Context, key string) {
	rdb.Del(ctx, key)
}

// A constant in a cache helper released by a cache helper: no lock names.
func Remember(ctx context.Context, key string) bool {
	return rdb.SetNX(ctx, key, "1", time.Minute).Val()
}

func Forget(ctx context.Context, key string) {
	rdb.Del(ctx, key)
}
