// Lock helpers of one package: the acquire helper sets no TTL, the release
// is in its counterpart.
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

func Lock(ctx context.Context, key, token string) (bool, error) {
	return rdb.SetNX(ctx, key, token, 0).Result() // want `lock key is acquired by SetNX with no TTL and nothing expires it`
}

func Unlock(ctx context.Context, key string) error {
	return rdb.Del(ctx, key).Err()
}

type Conn struct{ c redigo.Conn }

func (c *Conn) Acquire(key, token string) (bool, error) {
	r, err := c.c.Do("SETNX", key, token) // want `lock key is acquired by SETNX with no TTL`
	return r == int64(1), err
}

func (c *Conn) Release(key string) {
	c.c.Do("DEL", key)
}

var client rueidis.Client

func TryLock(ctx context.Context, key, token string) error {
	return client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Build()).Error() // want `lock key is acquired by SET with no TTL`
}

func Unlock2(ctx context.Context, key string) error {
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error()
}

// --- silent ---

// The TTL is set by the acquire.
func LockJob(ctx context.Context, key, token string) bool {
	return rdb.SetNX(ctx, key, token, time.Minute).Val()
}

func UnlockJob(ctx context.Context, key string) {
	rdb.Del(ctx, key)
}

// A set-once marker with no TTL and no release.
func Claim(ctx context.Context, key string) bool {
	return rdb.SetNX(ctx, key, "1", 0).Val()
}
