// Package valkey: valkey-go's native client is rueidis' adapter registered
// under valkey-go's module path, reading the same command table.
package valkey

import (
	"context"
	"time"

	"github.com/valkey-io/valkey-go"
)

var unlock = valkey.NewLuaScript(`if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end`)

func ops(ctx context.Context, client valkey.Client, key, tok string, ttl time.Duration) {
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().PxMilliseconds(30000).Build()) // want `valkey-go acquire SET key=key value=tok ttl=30000/millis$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().Ex(ttl).Build())               // want `valkey-go acquire SET key=key value=tok ttl=ttl/duration trunc=1s$`
	client.Do(ctx, client.B().Setnx().Key(key).Value(tok).Build())                          // want `valkey-go acquire SETNX key=key value=tok nottl$`
	client.Do(ctx, client.B().Pexpire().Key(key).Milliseconds(30000).Build())               // want `valkey-go expire PEXPIRE key=key ttl=30000/millis$`
	client.Do(ctx, client.B().Del().Key(key).Build())                                       // want `valkey-go delete DEL key=key$`
	client.Do(ctx, client.B().Getdel().Key(key).Build())                                    // want `valkey-go delete GETDEL key=key$`
	client.Do(ctx, client.B().Get().Key(key).Build())                                       // want `valkey-go get GET key=key$`
	client.Do(ctx, client.B().Delex().Key(key).Ifeq(tok).Build())                           // want `valkey-go comparedelete DELEX key=key value=tok$`
	unlock.Exec(ctx, client, []string{key}, []string{tok})                                  // want `valkey-go script Exec key=key args=1 src=if$`
	client.DoMulti(ctx,
		client.B().Setnx().Key(key).Value(tok).Build(),   // want `valkey-go acquire SETNX key=key value=tok nottl scope=pipeline@client$`
		client.B().Expire().Key(key).Seconds(30).Build(), // want `valkey-go expire EXPIRE key=key ttl=30/seconds scope=pipeline@client$`
	)
	client.Do(ctx, client.B().Incr().Key(key).Build()) // want `valkey-go counter INCR key=key$`
}
