package goredis

import (
	"context"
	"fmt"
	"time"

	redis6 "github.com/go-redis/redis"
	redis8 "github.com/go-redis/redis/v8"
	"github.com/redis/go-redis/v9"
)

var unlock = redis.NewScript(`if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end`)

type store struct {
	*redis.Client // embedded: promoted methods still match
}

func v9(ctx context.Context, rdb *redis.Client, c redis.Cmdable, u redis.UniversalClient, s store, key string, ttl time.Duration) {
	rdb.SetNX(ctx, key, "tok", ttl)                                           // want `go-redis/v9 acquire SetNX key=key value="tok" ttl=ttl/duration$`
	rdb.SetNX(ctx, key, "tok", 0)                                             // want `acquire SetNX key=key value="tok" ttl=0/duration nottl$`
	c.SetNX(ctx, key, 1, redis.KeepTTL)                                       // want `acquire SetNX key=key value=1 ttl=redis.KeepTTL/duration nottl$`
	u.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "nx"})                       // want `acquire SetArgs key=key value="t" nottl$`
	u.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", TTL: ttl})             // want `acquire SetArgs key=key value="t" ttl=ttl/duration$`
	u.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "NX", ExpireAt: time.Now()}) // want `acquire SetArgs key=key value="t" ttl=time.Now\(\)/time$`
	u.SetArgs(ctx, key, "t", redis.SetArgs{Mode: "XX", TTL: ttl})             // want `write SetArgs key=key value="t" ttl=ttl/duration$`
	s.Set(ctx, key, "v", time.Minute)                                         // want `write Set key=key value="v" ttl=time.Minute/duration$`
	s.GetSet(ctx, key, "v")                                                   // want `getset GetSet key=key value="v" nottl$`
	rdb.Expire(ctx, fmt.Sprintf("l:%d", 1), ttl)                              // want `expire Expire key=fmt.Sprintf\("l:%d", 1\) ttl=ttl/duration$`
	rdb.PExpireAt(ctx, key, time.Now())                                       // want `expire PExpireAt key=key ttl=time.Now\(\)/time$`
	rdb.Del(ctx, key, "other")                                                // want `delete Del key=key,"other"$`
	keys := []string{key}
	rdb.Unlink(ctx, keys...)                         // want `delete Unlink key=...$`
	rdb.Get(ctx, key)                                // want `get Get key=key$`
	rdb.Eval(ctx, "return 1", []string{key}, "a", 2) // want `script Eval key=key args=2 src=return$`
	unlock.Run(ctx, rdb, []string{key}, "tok")       // want `script Run key=key args=1 src=if$`
	rdb.Incr(ctx, key)                               // want `counter Incr key=key$`
}

func scopes(ctx context.Context, rdb *redis.Client, key string) {
	rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.SetNX(ctx, key, 1, 0) // want `acquire SetNX .* nottl scope=tx@rdb$`
		rdb.Get(ctx, key)          // want `get Get key=key$`
		return nil
	})
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Expire(ctx, key, time.Second) // want `expire Expire .* scope=pipeline@rdb$`
		return nil
	})
	pipe := rdb.TxPipeline()
	pipe.Del(ctx, key) // want `delete Del key=key scope=tx@rdb$`
	pipe.Exec(ctx)
	rdb.Watch(ctx, func(tx *redis.Tx) error {
		tx.Get(ctx, key) // want `get Get key=key watch$`
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Del(ctx, key) // want `delete Del key=key scope=tx@tx watch$`
			return nil
		})
		return err
	}, key)
}

func v8(ctx context.Context, rdb *redis8.ClusterClient, key string) {
	rdb.SetNX(ctx, key, "t", 0) // want `go-redis/v8 acquire SetNX key=key value="t" ttl=0/duration nottl$`
}

func v6(rdb *redis6.Client, key string) {
	rdb.SetNX(key, "t", 0)          // want `go-redis/v6 acquire SetNX key=key value="t" ttl=0/duration nottl$`
	rdb.Expire(key, 10*time.Second) // want `go-redis/v6 expire Expire key=key ttl=10 \* time.Second/duration$`
}

// Commands sent by name with Do read the command table, as redigo's do.
func do(ctx context.Context, rdb *redis.Client, r6 *redis6.Client, key string, ms int, args []interface{}) {
	rdb.Do(ctx, "set", key, "tok", "nx", "px", ms) // want `go-redis/v9 acquire SET key=key value="tok" ttl=ms/millis$`
	rdb.Do(ctx, "SET", key, "tok", "NX")           // want `acquire SET key=key value="tok" nottl$`
	rdb.Do(ctx, "SET", key, "tok", "XX", "EX", 30) // want `write SET key=key value="tok" ttl=30/seconds$`
	rdb.Do(ctx, "setnx", key, "tok")               // want `acquire SETNX key=key value="tok" nottl$`
	rdb.Do(ctx, "pexpire", key, ms)                // want `expire PEXPIRE key=key ttl=ms/millis$`
	rdb.Do(ctx, "del", key, "other")               // want `delete DEL key=key,"other"$`
	rdb.Do(ctx, "get", key)                        // want `get GET key=key$`
	rdb.Do(ctx, "eval", "return 1", 1, key, "a")   // want `script EVAL key=key args=1 src=return$`
	rdb.Do(ctx, "DELEX", key, "IFEQ", "tok")       // want `comparedelete DELEX key=key value="tok"$`
	rdb.Do(ctx, "getdel", key)                     // want `delete GETDEL key=key$`
	rdb.Do(ctx, "incr", key)                       // want `counter INCR key=key$`
	rdb.Do(ctx, args...)                           // the name is not a constant
	r6.Do("set", key, "tok", "nx")                 // want `go-redis/v6 acquire SET key=key value="tok" nottl$`
	rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Do(ctx, "pexpire", key, ms) // want `expire PEXPIRE key=key ttl=ms/millis scope=pipeline@rdb$`
		return nil
	})
}
