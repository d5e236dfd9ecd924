// Package v9do releases go-redis locks with commands sent by name (Do),
// which redisops reads from the same command table as redigo's.
package v9do

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

var ErrLocked = errors.New("locked")

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// --- reported ---

// Acquired with SET NX PX by name, released with DEL by name.
func byName(ctx context.Context, rdb *redis.Client, key string, work func()) error {
	token := newToken()
	if err := rdb.Do(ctx, "set", key, token, "nx", "px", 30000).Err(); err != nil {
		return ErrLocked
	}
	defer rdb.Do(ctx, "del", key) // want `DEL of lock key key does not check the owner`
	work()
	return nil
}

// Acquired with the typed method, released by name.
func mixed(ctx context.Context, rdb redis.UniversalClient, key string, work func()) error {
	token := newToken()
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return ErrLocked
	}
	defer rdb.Do(ctx, "UNLINK", key) // want `UNLINK of lock key key does not check the owner`
	work()
	return nil
}

// --- not reported ---

// The owner-checked release, sent by name.
func delex(ctx context.Context, rdb *redis.Client, key string, work func()) error {
	token := newToken()
	if err := rdb.Do(ctx, "SET", key, token, "NX", "PX", 30000).Err(); err != nil {
		return ErrLocked
	}
	defer rdb.Do(ctx, "DELEX", key, "IFEQ", token)
	work()
	return nil
}

// A command chosen at run time is not read.
func chosen(ctx context.Context, rdb *redis.Client, key, cmd string, work func()) error {
	token := newToken()
	if err := rdb.Do(ctx, "SET", key, token, "NX", "PX", 30000).Err(); err != nil {
		return ErrLocked
	}
	defer rdb.Do(ctx, cmd, key)
	work()
	return nil
}
