package svc

import (
	"context"
	"time"

	"lockvet.test/redisops/mirror/store"
)

func typed(ctx context.Context, s store.Store, key string, ttl time.Duration) {
	s.SetNX(ctx, key, "tok", ttl)                  // want `go-redis/v9 acquire SetNX key=key value="tok" ttl=ttl/duration$`
	s.SetNX(ctx, key, "tok", 0)                    // want `go-redis/v9 acquire SetNX key=key value="tok" ttl=0/duration nottl$`
	s.Expire(ctx, key, ttl)                        // want `go-redis/v9 expire Expire key=key ttl=ttl/duration$`
	s.Del(ctx, key, "other")                       // want `go-redis/v9 delete Del key=key,"other"$`
	s.Get(ctx, key)                                // want `go-redis/v9 get Get key=key$`
	s.Eval(ctx, "return 1", []string{key}, "a", 2) // want `go-redis/v9 script Eval key=key args=2 src=return$`
	s.Incr(ctx, key)                               // want `go-redis/v9 counter Incr key=key$`
	if s.Incr(ctx, key).Val() == 1 {               // want `go-redis/v9 acquire Incr key=key nottl$`
		defer s.Del(ctx, key) // want `go-redis/v9 delete Del key=key$`
	}
	pipe := s.TxPipeline()
	pipe.SetNX(ctx, key, 1, 0) // want `go-redis/v9 acquire SetNX key=key value=1 ttl=0/duration nottl scope=tx@s$`
	pipe.Exec(ctx)
}

func plain(b store.Backend, key string) {
	b.SetNx(key, "tok", 30) // want `mirror acquire SetNx key=key value="tok" ttl=30/seconds$`
	b.Expire(key, 30)       // want `mirror expire Expire key=key ttl=30/seconds$`
	b.PExpire(key, 30000)   // want `mirror expire PExpire key=key ttl=30000/millis$`
	b.Del(key)              // want `mirror delete Del key=key$`
	b.Get(key)              // want `mirror get Get key=key$`
	b.Set(key, "v")         // want `mirror write Set key=key value="v"$`
	n, err := b.Incr(key)   // want `mirror acquire Incr key=key nottl$`
	if err != nil {
		return
	}
	if n != 1 {
		return
	}
	b.Del(key) // want `mirror delete Del key=key$`
}

func cache(ctx context.Context, c store.Cache, key string) {
	c.Get(ctx, key)                   // want `mirror get Get key=key$`
	c.Set(ctx, key, nil, time.Minute) // want `mirror write Set key=key value=nil ttl=time.Minute/duration$`
	c.Del(ctx, key)                   // want `mirror delete Del key=key$`
}

func wrapped(ctx context.Context, w store.Wrapped, key string, ttl time.Duration) {
	w.SetNX(ctx, key, "tok", ttl) // want `mirror acquire SetNX key=key value="tok" ttl=ttl/duration$`
	w.Del(ctx, key)               // want `mirror delete Del key=key$`
	pipe := w.TxPipeline(ctx)
	pipe.SetNX(ctx, key, 1, 0) // want `go-redis/v9 acquire SetNX key=key value=1 ttl=0/duration nottl scope=tx@w$`
	pipe.Expire(ctx, key, ttl) // want `go-redis/v9 expire Expire key=key ttl=ttl/duration scope=tx@w$`
	pipe.Exec(ctx)
	pipe.Expire(ctx, key, ttl) // want `go-redis/v9 expire Expire key=key ttl=ttl/duration scope=tx@w$`
	w.Close()
}

func none(ctx context.Context, m *store.Mem, e store.Evicter, o store.Odd, key string) {
	m.Get(key)
	m.Set(key, "v")
	m.Del(key)
	e.Del(ctx, key)
	o.Set(ctx, key, 1)
	o.Get(ctx, key, key)
	o.Del(key)
}

func concrete(ctx context.Context, c *store.Client, key string, ttl time.Duration) {
	c.SetNX(ctx, key, "tok", ttl) // want `inferred acquire SetNX key=key value="tok" ttl=ttl/duration$`
	c.Del(ctx, key)               // want `mirror delete Del key=key$`
}

func forwarded(p *store.Pool, key, tok string) {
	p.SafeDo("SET", key, tok, "NX", "PX", 30000) // want `redigo acquire SET key=key value=tok ttl=30000/millis$`
	p.SafeDo("SETNX", key, tok)                  // want `redigo acquire SETNX key=key value=tok nottl$`
	p.Retry("EXPIRE", key, 30)                   // want `redigo expire EXPIRE key=key ttl=30/seconds$`
	p.SafeSend("DEL", key)                       // want `redigo delete DEL key=key$`
	p.Exec("del", key)                           // want `redigo delete DEL key=key$`
	p.Named(key)
	cmd := "GET"
	p.SafeDo(cmd, key) // a variable: not read
}
