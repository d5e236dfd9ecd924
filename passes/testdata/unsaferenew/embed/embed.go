// Renewal scripts kept in .lua files and embedded: the unchecked one is
// reported, the owner-checked one is silent and reused by the fix.
package embed

import (
	"context"
	_ "embed"
	"time"

	"github.com/redis/go-redis/v9"
)

var (
	//go:embed renew.lua
	renewLua string
	//go:embed touch.lua
	touchLua string
)

var (
	extend = redis.NewScript(renewLua)
	touch  = redis.NewScript(touchLua)
)

func heartbeat(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	for {
		time.Sleep(ttl / 3)
		rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a loop`
	}
}

func touchLoop(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	for {
		time.Sleep(ttl / 3)
		touch.Run(ctx, rdb, []string{key}, ttl.Milliseconds()) // want `script renews lock key in a loop without comparing its value`
	}
}

// Silent: the embedded compare-and-pexpire script.
func keepAlive(ctx context.Context, rdb *redis.Client, key, token string, ttl time.Duration) {
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	for {
		time.Sleep(ttl / 3)
		extend.Run(ctx, rdb, []string{key}, token, ttl.Milliseconds())
	}
}
