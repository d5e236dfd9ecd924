// Lock helpers of one package: the renewal in the counterpart of the
// acquire, the key a parameter of both.
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

// go-redis v9: Lock/Refresh at package level.
func Lock(ctx context.Context, key, token string) bool {
	return rdb.SetNX(ctx, key, token, 30*time.Second).Val()
}

func Refresh(ctx context.Context, key string) error {
	return rdb.Expire(ctx, key, 30*time.Second).Err() // want `Expire renews lock key in Refresh without checking`
}

// redigo: methods of one type.
type Conn struct{ c redigo.Conn }

func (c *Conn) TryLock(key, token string) (bool, error) {
	r, err := c.c.Do("SET", key, token, "NX", "PX", 30000)
	return r != nil, err
}

func (c *Conn) Extend(key string, ms int) error {
	_, err := c.c.Do("PEXPIRE", key, ms) // want `PEXPIRE renews lock key in Extend without checking`
	return err
}

// rueidis: AcquireLock/RenewLock.
var client rueidis.Client

func AcquireLock(ctx context.Context, key, token string) error {
	return client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error()
}

func RenewLock(ctx context.Context, key string) error {
	return client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build()).Error() // want `EXPIRE renews lock key in RenewLock without checking`
}

// --- silent ---

var extend = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// Renewed with an owner check.
func LockJob(ctx context.Context, key, token string) bool {
	return rdb.SetNX(ctx, key, token, 30*time.Second).Val()
}

func RefreshJob(ctx context.Context, key, token string) error {
	return extend.Run(ctx, rdb, []string{key}, token, 30000).Err()
}

// A session touched by a cache helper: no lock names.
func SaveSession(ctx context.Context, key, v string) error {
	return rdb.SetNX(ctx, key, v, time.Hour).Err()
}

func TouchSession(ctx context.Context, key string) error {
	return rdb.Expire(ctx, key, time.Hour).Err()
}

// A rate-limit counter: INCR and EXPIRE, no acquire.
func Allow(ctx context.Context, key string) bool {
	n := rdb.Incr(ctx, key).Val()
	if n == 1 {
		rdb.Expire(ctx, key, time.Minute)
	}
	return n <= 10
}
