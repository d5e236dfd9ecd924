// Lock helpers of one package: the release helper compares the lock's
// value with a constant and deletes in two round trips. A constant needs
// lock evidence, here the counterpart acquire helper.
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

func Lock(ctx context.Context, key string) bool {
	return rdb.SetNX(ctx, key, "1", time.Minute).Val()
}

func Unlock(ctx context.Context, key string) {
	if rdb.Get(ctx, key).Val() == "1" {
		rdb.Del(ctx, key) // want `Del of key after a separate GET compare can delete another holder's lock; compare and delete in one step; "1" is shared by every holder \(LV204\)`
	}
}

type Conn struct{ c redigo.Conn }

func (c *Conn) Lock(key string) (bool, error) {
	r, err := c.c.Do("SET", key, "locked", "NX", "EX", 30)
	return r != nil, err
}

func (c *Conn) Unlock(key string) error {
	v, err := redigo.String(c.c.Do("GET", key))
	if err != nil {
		return err
	}
	if v == "locked" {
		_, err = c.c.Do("DEL", key) // want `DEL of key after a separate GET compare can delete another holder's lock; compare and delete in one step; "locked" is shared by every holder \(LV204\)`
	}
	return err
}

var client rueidis.Client

func AcquireLock(ctx context.Context, key string) error {
	return client.Do(ctx, client.B().Set().Key(key).Value("x").Nx().ExSeconds(30).Build()).Error()
}

func ReleaseLock(ctx context.Context, key string) error {
	v, err := client.Do(ctx, client.B().Get().Key(key).Build()).ToString()
	if err != nil || v != "x" {
		return err
	}
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error() // want `DEL of key after a separate GET compare can delete another holder's lock; compare and delete in one step; "x" is shared by every holder \(LV204\)`
}

// --- silent ---

// A flag cleared once it is set: nothing acquires the key with NX.
func ClearFlag(ctx context.Context, key string) {
	if rdb.Get(ctx, key).Val() == "1" {
		rdb.Del(ctx, key)
	}
}

// A cache helper pair: no lock names.
func Fill(ctx context.Context, key string) bool {
	return rdb.SetNX(ctx, key, "1", time.Minute).Val()
}

func Drop(ctx context.Context, key string) {
	if rdb.Get(ctx, key).Val() == "1" {
		rdb.Del(ctx, key)
	}
}
