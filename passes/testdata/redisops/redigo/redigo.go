package redigo

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
)

const cmdSet = "SET"

var unlock = redis.NewScript(1, `if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end`)

type locker struct {
	conn redis.Conn
}

func commands(ctx context.Context, c redis.Conn, pool *redis.Pool, l locker, key, tok string, ttl time.Duration, cmd string) {
	c.Do("SETNX", key, tok)                                     // want `redigo acquire SETNX key=key value=tok nottl$`
	c.Do("SET", key, tok, "NX", "PX", ttl.Milliseconds())       // want `redigo acquire SET key=key value=tok ttl=ttl.Milliseconds\(\)/millis$`
	c.Do("set", key, tok, "ex", 30, "nx")                       // want `redigo acquire SET key=key value=tok ttl=30/seconds$`
	c.Do(cmdSet, key, tok, "NX")                                // want `redigo acquire SET key=key value=tok nottl$`
	c.Do("SET", key, tok, "NX", "KEEPTTL")                      // want `redigo acquire SET key=key value=tok nottl$`
	c.Do("SET", key, tok, "NX", "PXAT", time.Now().UnixMilli()) // want `redigo acquire SET key=key value=tok ttl=time.Now\(\).UnixMilli\(\)/time$`
	c.Do("SET", key, tok, "XX", "EX", 30)                       // want `redigo write SET key=key value=tok ttl=30/seconds$`
	c.Do("SET", key, tok, "NX", cmd, 30)                        // want `redigo acquire SET key=key value=tok$`
	c.Do("SET", key, tok)                                       // want `redigo write SET key=key value=tok$`
	c.Do("SETEX", key, 30, tok)                                 // want `redigo write SETEX key=key value=tok ttl=30/seconds$`
	c.Do("GETSET", key, tok)                                    // want `redigo getset GETSET key=key value=tok nottl$`
	c.Do("EXPIRE", key, 30)                                     // want `redigo expire EXPIRE key=key ttl=30/seconds$`
	c.Do("PEXPIRE", key, ttl.Milliseconds())                    // want `redigo expire PEXPIRE key=key ttl=ttl.Milliseconds\(\)/millis$`
	c.Do("EXPIREAT", key, time.Now().Unix()+30)                 // want `redigo expire EXPIREAT key=key ttl=time.Now\(\).Unix\(\) \+ 30/time$`
	c.Do("DEL", key, "other")                                   // want `redigo delete DEL key=key,"other"$`
	c.Do("GET", key)                                            // want `redigo get GET key=key$`
	c.Do("GETDEL", key)                                         // want `redigo delete GETDEL key=key$`
	c.Do("DELEX", key, "IFEQ", tok)                             // want `redigo comparedelete DELEX key=key value=tok$`
	c.Do("DELEX", key)                                          // want `redigo delete DELEX key=key$`
	c.Do("DELEX", key, "IFNE", tok)                             // not the owner's release: not an op
	c.Do("EVAL", "return 1", 1, key, "a", 2)                    // want `redigo script EVAL key=key args=2 src=return$`
	unlock.Do(c, key, tok)                                      // want `redigo script Do key=key args=1 src=if$`
	redis.NewScript(2, "return 1").Do(c, key, "k2", tok)        // want `redigo script Do key=key,"k2" args=1 src=return$`
	redis.DoContext(c, ctx, "DEL", key)                         // want `redigo delete DEL key=key$`
	redis.DoWithTimeout(c, time.Second, "EXPIRE", key, 30)      // want `redigo expire EXPIRE key=key ttl=30/seconds$`
	c.(redis.ConnWithContext).DoContext(ctx, "GET", key)        // want `redigo get GET key=key$`
	pool.Get().Do("SET", key, tok, "NX", "EX", 30)              // want `redigo acquire SET key=key value=tok ttl=30/seconds$`
	l.conn.Do("DEL", key)                                       // want `redigo delete DEL key=key$`
	keys := []interface{}{key}
	c.Do("DEL", keys...) // want `redigo delete DEL key=...$`
	c.Do(cmd, key)       // a command chosen at run time: not an op
	c.Do("INCR", key)    // want `redigo counter INCR key=key$`
}

func scopes(c redis.Conn, key, tok string) {
	c.Send("MULTI")
	c.Send("SETNX", key, tok) // want `acquire SETNX .* scope=tx@c$`
	c.Send("EXPIRE", key, 30) // want `expire EXPIRE .* scope=tx@c$`
	c.Do("EXEC")
	c.Do("GET", key) // want `get GET key=key$`

	c.Send("SETNX", key, tok) // want `acquire SETNX .* scope=pipeline@c$`
	c.Do("EXPIRE", key, 30)   // want `expire EXPIRE .* scope=pipeline@c$`
	c.Do("DEL", key)          // want `delete DEL key=key$`

	c.Do("WATCH", key)
	c.Do("GET", key) // want `get GET key=key watch$`
	c.Send("MULTI")
	c.Send("DEL", key) // want `delete DEL key=key scope=tx@c watch$`
	c.Do("EXEC")
	c.Do("DEL", key) // want `delete DEL key=key$`
}

// A branch that returns does not reach what follows: its UNWATCH does not
// end the WATCH for the transaction after it.
func watchReturn(c redis.Conn, key, tok string) error {
	c.Do("WATCH", key)
	v, err := redis.String(c.Do("GET", key)) // want `get GET key=key watch$`
	if err != nil || v != tok {
		c.Do("UNWATCH")
		return err
	}
	c.Send("MULTI")
	c.Send("DEL", key) // want `delete DEL key=key scope=tx@c watch$`
	_, err = c.Do("EXEC")
	return err
}

// Deferred and later-run calls do not open batches here.
func deferred(c redis.Conn, key string) {
	defer c.Send("MULTI")
	go func() { c.Send("MULTI") }()
	c.Do("DEL", key) // want `delete DEL key=key$`
}
