// Package getsetexpire is the LV101 (setnxexpire) proof shape of GETSET,
// then EXPIRE: under proof/internal/buggy as lockvet reports it, under
// proof/internal/fixed as lockvet -fix rewrites it.
package getsetexpire

//lint:file-ignore SA1019 GETSET, deprecated by SET … GET, is the recipe this shape reproduces

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// getSetScript sets KEYS[1] to ARGV[1] with a TTL of ARGV[2] milliseconds
// in one step and replies the old value (nil when there was none), as GETSET
// does; GETSET alone leaves the key with no TTL.
var getSetScript = redis.NewScript(`local old = redis.call("getset", KEYS[1], ARGV[1]) redis.call("pexpire", KEYS[1], ARGV[2]) return old`)

// Takeover writes token over the lock key and gives it ttl: the takeover
// of an expired lock in the SETNX-timestamp recipe. It returns the value
// it replaced (redis.Nil when there was none).
func Takeover(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) (string, error) {
	old, err := getSetScript.Run(ctx, rdb, []string{key}, token, ttl.Milliseconds()).Text()
	if err != nil && err != redis.Nil {
		return "", err
	}
	return old, err
}
