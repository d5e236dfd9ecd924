// The package's compare-and-delete script lives in unlock.lua, embedded:
// the fix runs it instead of declaring another.
package embed

import (
	"context"
	_ "embed"
	"time"

	"github.com/redis/go-redis/v9"
)

//go:embed unlock.lua
var unlockLua string

var releaseLock = redis.NewScript(unlockLua)

func work(ctx context.Context, rdb *redis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer rdb.Del(ctx, key) // want `Del of lock key key does not check the owner`
}

// Silent: the release runs the embedded compare-and-delete.
func done(ctx context.Context, rdb *redis.Client, key, token string) {
	if !rdb.SetNX(ctx, key, token, time.Minute).Val() {
		return
	}
	defer releaseLock.Run(ctx, rdb, []string{key}, token)
}
