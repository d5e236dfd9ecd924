package redigo

import (
	_ "embed"
	"time"

	"github.com/gomodule/redigo/redis"
)

//go:embed lua/renew.lua
var renewSrc string

//go:embed lua/touch.lua
var touchSrc string

var (
	renewFromFile = redis.NewScript(1, renewSrc)
	touchFromFile = redis.NewScript(1, touchSrc)
)

// Bug: the embedded script reads ARGV[2] as milliseconds.
func renewEmbedded(c redis.Conn, key, token string, ttl time.Duration) (int, error) {
	return redis.Int(renewFromFile.Do(c, key, token, ttl)) // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass ttl\.Milliseconds\(\)`
}

// Bug: EVAL of the embedded text.
func evalEmbedded(c redis.Conn, key, token string, ttl time.Duration) {
	c.Do("EVAL", renewSrc, 1, key, token, ttl) // want `ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass ttl\.Milliseconds\(\)`
}

// Silent: the embedded script never reads ARGV[2]; EVALSHA of a script
// not known here.
func touchEmbedded(c redis.Conn, key, token, sha string, ttl time.Duration) {
	touchFromFile.Do(c, key, token, ttl)
	c.Do("EVALSHA", sha, 1, key, token, ttl)
}
