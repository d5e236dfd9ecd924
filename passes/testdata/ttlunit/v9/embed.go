package v9

import (
	"context"
	"embed"
	"time"

	"github.com/redis/go-redis/v9"
)

// Scripts kept in files of their own and embedded: redisops reads them.

//go:embed lua/renew.lua
var renewFile string

var renewEmbedded = redis.NewScript(renewFile)

//go:embed lua/touch.lua
var touchFile []byte

var touchEmbedded = redis.NewScript(string(touchFile))

var (
	//go:embed lua/*.lua
	allScripts embed.FS
	//go:embed lua/missing.lua lua/renew.lua
	twoFiles string
)

// Bug: the embedded script passes ARGV[2] to PEXPIRE.
func renewFromFile(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration) {
	renewEmbedded.Run(ctx, rdb, []string{key}, tok, ttl) // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass ttl\.Milliseconds\(\)$`
}

// Bug: Eval of the embedded text itself.
func evalFile(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration) {
	rdb.Eval(ctx, renewFile, []string{key}, tok, ttl) // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass ttl\.Milliseconds\(\)`
}

// Silent: the embedded script never reads ARGV[2]; a directive this reader
// does not follow (two files) leaves the text unknown.
func touchFromFile(ctx context.Context, rdb *redis.Client, key, tok string, ttl time.Duration) {
	touchEmbedded.Run(ctx, rdb, []string{key}, tok, ttl)
	rdb.Eval(ctx, twoFiles, []string{key}, tok, ttl)
	_ = allScripts
}
