// Package payment is in a module whose path has no dot, as services'
// module paths often have: its key function is not the standard
// library's.
package payment

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

func captureKey(id string) string { return fmt.Sprintf("capture:%s", id) }

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// --- reported ---

func Capture(ctx context.Context, rdb *redis.Client, id string) error {
	token := newToken()
	ok, err := rdb.SetNX(ctx, captureKey(id), token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer rdb.Del(ctx, captureKey(id)) // want `Del of lock key captureKey\(id\) does not check the owner`
	return nil
}

// --- silent ---

func Refund(ctx context.Context, rdb *redis.Client, id string) error {
	token := newToken()
	ok, err := rdb.SetNX(ctx, captureKey(id), token, time.Minute).Result()
	if err != nil || !ok {
		return err
	}
	defer unlockScript.Run(ctx, rdb, []string{captureKey(id)}, token)
	return nil
}
