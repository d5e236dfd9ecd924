package rueidis

import (
	"context"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

var unlock = rueidis.NewLuaScript(`if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end`)

func direct(ctx context.Context, client rueidis.Client, key, tok string, ttl time.Duration, secs int64) {
	client.Do(ctx, client.B().Setnx().Key(key).Value(tok).Build())                                       // want `rueidis acquire SETNX key=key value=tok nottl$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().Build())                                    // want `rueidis acquire SET key=key value=tok nottl$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().Keepttl().Build())                          // want `rueidis acquire SET key=key value=tok nottl$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().ExSeconds(30).Build())                      // want `rueidis acquire SET key=key value=tok ttl=30/seconds$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().PxMilliseconds(ttl.Milliseconds()).Build()) // want `rueidis acquire SET key=key value=tok ttl=ttl.Milliseconds\(\)/millis$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().Ex(ttl).Build())                            // want `rueidis acquire SET key=key value=tok ttl=ttl/duration trunc=1s$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().Get().Px(ttl).Build())                      // want `rueidis acquire SET key=key value=tok ttl=ttl/duration trunc=1ms$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Nx().Exat(time.Now()).Build())                   // want `rueidis acquire SET key=key value=tok ttl=time.Now\(\)/time$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Xx().ExSeconds(secs).Build())                    // want `rueidis write SET key=key value=tok ttl=secs/seconds$`
	client.Do(ctx, client.B().Set().Key(key).Value(tok).Build())                                         // want `rueidis write SET key=key value=tok$`
	client.Do(ctx, client.B().Setex().Key(key).Seconds(10).Value(tok).Build())                           // want `rueidis write SETEX key=key value=tok ttl=10/seconds$`
	client.Do(ctx, client.B().Getset().Key(key).Value(tok).Build())                                      // want `rueidis getset GETSET key=key value=tok nottl$`
	client.Do(ctx, client.B().Expire().Key(key).Seconds(secs).Build())                                   // want `rueidis expire EXPIRE key=key ttl=secs/seconds$`
	client.Do(ctx, client.B().Pexpire().Key(key).Milliseconds(1500).Xx().Build())                        // want `rueidis expire PEXPIRE key=key ttl=1500/millis$`
	client.Do(ctx, client.B().Expireat().Key(key).Timestamp(time.Now().Unix()).Build())                  // want `rueidis expire EXPIREAT key=key ttl=time.Now\(\).Unix\(\)/time$`
	client.Do(ctx, client.B().Del().Key(key, "other").Build())                                           // want `rueidis delete DEL key=key,"other"$`
	keys := []string{key}
	client.Do(ctx, client.B().Unlink().Key(keys...).Build())                                       // want `rueidis delete UNLINK key=...$`
	client.Do(ctx, client.B().Get().Key(key).Build())                                              // want `rueidis get GET key=key$`
	client.Do(ctx, client.B().Getdel().Key(key).Build())                                           // want `rueidis delete GETDEL key=key$`
	client.DoCache(ctx, client.B().Get().Key(key).Cache(), time.Minute)                            // want `rueidis get GET key=key$`
	client.Do(ctx, client.B().Delex().Key(key).Ifeq(tok).Build())                                  // want `rueidis comparedelete DELEX key=key value=tok$`
	client.Do(ctx, client.B().Delex().Key(key).Ifne(tok).Build())                                  // not an owner check
	client.Do(ctx, client.B().Eval().Script("return 1").Numkeys(1).Key(key).Arg("a", "b").Build()) // want `rueidis script EVAL key=key args=2 src=return$`
	unlock.Exec(ctx, client, []string{key}, []string{tok})                                         // want `rueidis script Exec key=key args=1 src=if$`
	rueidis.NewLuaScript("return 2").Exec(ctx, client, []string{key}, nil)                         // want `rueidis script Exec key=key args=0 src=return$`
	client.Do(ctx, client.B().Incr().Key(key).Build())                                             // want `rueidis counter INCR key=key$`
}

// Commands through a variable: followed when defined once from a chain in
// the same function and used once.
func variables(ctx context.Context, client rueidis.Client, key, tok string, cmd rueidis.Completed) {
	acquire := client.B().Set().Key(key).Value(tok).Nx().ExSeconds(30).Build()
	client.Do(ctx, acquire) // want `rueidis acquire SET key=key value=tok ttl=30/seconds$`
	client.Do(ctx, cmd)     // a parameter: unknown

	reused := client.B().Del().Key(key).Build()
	client.Do(ctx, reused)
	client.Do(ctx, reused) // used twice (rueidis recycles it anyway): not followed
}

func batches(ctx context.Context, client rueidis.Client, key, tok string) {
	client.DoMulti(ctx,
		client.B().Setnx().Key(key).Value(tok).Build(),   // want `rueidis acquire SETNX key=key value=tok nottl scope=pipeline@client$`
		client.B().Expire().Key(key).Seconds(30).Build(), // want `rueidis expire EXPIRE key=key ttl=30/seconds scope=pipeline@client$`
	)
	exp := client.B().Expire().Key(key).Seconds(30).Build() // want `rueidis expire EXPIRE key=key ttl=30/seconds scope=tx@client$`
	client.DoMulti(ctx,
		client.B().Multi().Build(),
		client.B().Setnx().Key(key).Value(tok).Build(), // want `rueidis acquire SETNX key=key value=tok nottl scope=tx@client$`
		exp,
		client.B().Exec().Build(),
	)
	cmds := rueidis.Commands{client.B().Del().Key(key).Build()}
	client.DoMulti(ctx, cmds...) // a spread slice: not followed
}

// WATCH on a dedicated connection, then MULTI/EXEC: the optimistic check.
func dedicated(ctx context.Context, client rueidis.Client, key, tok string) error {
	return client.Dedicated(func(c rueidis.DedicatedClient) error {
		c.Do(ctx, c.B().Watch().Key(key).Build())
		v, err := c.Do(ctx, c.B().Get().Key(key).Build()).ToString() // want `rueidis get GET key=key watch$`
		if err != nil || v != tok {
			return err
		}
		c.DoMulti(ctx,
			c.B().Multi().Build(),
			c.B().Del().Key(key).Build(), // want `rueidis delete DEL key=key scope=tx@c watch$`
			c.B().Exec().Build(),
		)
		return nil
	})
}

// rueidiscompat is go-redis shaped: the go-redis adapter's.
func compat(ctx context.Context, client rueidis.Client, key string, ttl time.Duration) {
	c := rueidiscompat.NewAdapter(client)
	c.SetNX(ctx, key, "t", ttl) // want `rueidiscompat acquire SetNX key=key value="t" ttl=ttl/duration$`
	c.Expire(ctx, key, ttl)     // want `rueidiscompat expire Expire key=key ttl=ttl/duration$`
	c.Del(ctx, key)             // want `rueidiscompat delete Del key=key$`
}
