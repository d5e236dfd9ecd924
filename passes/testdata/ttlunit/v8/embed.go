package v8

import (
	"context"
	_ "embed"

	"github.com/go-redis/redis/v8"
)

//go:embed renew.lua
var renewLua string

var renewFromFile = redis.NewScript(renewLua)

// Bug: an embedded PEXPIRE script given a raw Duration.
func (l *Locker) ExtendFile(ctx context.Context, key, tok string) error {
	return renewFromFile.Run(ctx, l.client, []string{key}, tok, l.ttl).Err() // want `l\.ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass l\.ttl\.Milliseconds\(\)`
}

// Silent: the argument the script reads as milliseconds is milliseconds.
func (l *Locker) ExtendFileMillis(ctx context.Context, key, tok string) error {
	return renewFromFile.Run(ctx, l.client, []string{key}, tok, l.ttl.Milliseconds()).Err()
}
