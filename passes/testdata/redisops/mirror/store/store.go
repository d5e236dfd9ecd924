// Package store is a project's own layer over its Redis clients: the
// interfaces and wrappers its services use (mirror.go).
package store

import (
	"context"
	"time"

	"github.com/gomodule/redigo/redis"
	goredis "github.com/redis/go-redis/v9"
)

// Store returns go-redis' command values.
type Store interface {
	SetNX(ctx context.Context, key string, v any, ttl time.Duration) *goredis.BoolCmd
	Del(ctx context.Context, keys ...string) *goredis.IntCmd
	Expire(ctx context.Context, key string, ttl time.Duration) *goredis.BoolCmd
	Get(ctx context.Context, key string) *goredis.StringCmd
	Set(ctx context.Context, key string, v any, ttl time.Duration) *goredis.StatusCmd
	Eval(ctx context.Context, script string, keys []string, args ...any) *goredis.Cmd
	Incr(ctx context.Context, key string) *goredis.IntCmd
	TxPipeline() goredis.Pipeliner
}

// Backend returns plain values, and counts its TTLs in seconds.
type Backend interface {
	SetNx(key, value string, seconds int) (bool, error)
	Del(key string) error
	Expire(key string, seconds int) error
	PExpire(key string, ttlMs int64) error
	Get(key string) (string, error)
	Set(key, value string) error
	Incr(key string) (int64, error)
}

// Cache is a cache: Get, Set and Del, no NX-style acquire.
type Cache interface {
	Get(ctx context.Context, key string) ([]byte, error)
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	Del(ctx context.Context, key string) error
}

// Result is the project's own command value, as go-redis' are read.
type Result interface {
	Err() error
	Val() bool
	Result() (bool, error)
}

// IntResult is the project's own integer command value.
type IntResult interface {
	Err() error
	Val() int64
	Result() (int64, error)
}

// Pipeliner is the project's pipeline: go-redis' commands, its own Exec.
type Pipeliner interface {
	goredis.StatefulCmdable
	Exec(ctx context.Context) ([]goredis.Cmder, error)
}

// Wrapped returns the project's own command values and pipelines.
type Wrapped interface {
	SetNX(ctx context.Context, key string, value any, expiration time.Duration) Result
	Del(ctx context.Context, keys ...string) IntResult
	Expire(ctx context.Context, key string, expiration time.Duration) Result
	TxPipeline(ctx context.Context) Pipeliner
	Close() error
}

// Own is a project interface whose command values are its own: Eval's
// reply has no Int64, only Err, Val and Result.
type Own interface {
	SetNX(ctx context.Context, key string, value any, ttl time.Duration) OwnBool
	Del(ctx context.Context, keys ...string) OwnInt
	Eval(ctx context.Context, script string, keys []string, args ...any) OwnAny
}

type OwnBool interface {
	Err() error
	Val() bool
	Result() (bool, error)
}

type OwnInt interface {
	Err() error
	Val() int64
	Result() (int64, error)
}

type OwnAny interface {
	Err() error
	Val() any
	Result() (any, error)
}

// --- no mirror ---

// Mem is an in-memory cache: no error, no client.
type Mem struct{ m map[string]string }

func (c *Mem) Get(k string) (string, bool) { v, ok := c.m[k]; return v, ok }
func (c *Mem) Set(k, v string)             { c.m[k] = v }
func (c *Mem) Del(k string)                { delete(c.m, k) }

// Evicter has one command method: no client.
type Evicter interface {
	Del(ctx context.Context, key string) error
	Close() error
}

// Odd has command names with other shapes: Set takes options, Get two
// keys, Del returns nothing an error says.
type Odd interface {
	Set(ctx context.Context, key string, value any, opts ...int) error
	Get(ctx context.Context, a, b string) (string, error)
	Del(key string) bool
}

// --- a concrete wrapper and its forwarders ---

// Client wraps go-redis: its methods' bodies are read by the summaries in
// this package; elsewhere it mirrors a client.
type Client struct{ rdb *goredis.Client }

func (c *Client) SetNX(ctx context.Context, key string, v any, ttl time.Duration) (bool, error) {
	return c.rdb.SetNX(ctx, key, v, ttl).Result() // want `go-redis/v9 acquire SetNX key=key value=v ttl=ttl/duration$`
}

func (c *Client) Del(ctx context.Context, keys ...string) error {
	return c.rdb.Del(ctx, keys...).Err() // want `go-redis/v9 delete Del key=...$`
}

// Pool forwards redigo's generic calls.
type Pool struct{ p *redis.Pool }

func (p *Pool) SafeDo(cmd string, args ...any) (any, error) {
	conn := p.p.Get()
	defer conn.Close()
	return conn.Do(cmd, args...)
}

func (p *Pool) Retry(cmd string, args ...any) (reply any, err error) {
	for range 3 {
		func() {
			conn := p.p.Get()
			defer conn.Close()
			reply, err = conn.Do(cmd, args...)
		}()
		if err == nil {
			break
		}
	}
	return reply, err
}

func (p *Pool) SafeSend(cmd string, args ...any) error {
	conn := p.p.Get()
	defer conn.Close()
	if err := conn.Send(cmd, args...); err != nil {
		return err
	}
	return conn.Flush()
}

// Exec forwards through SafeDo.
func (p *Pool) Exec(cmd string, args ...any) (any, error) { return p.SafeDo(cmd, args...) }

// Named is no forwarder: it sends a command of its own choosing.
func (p *Pool) Named(args ...any) (any, error) {
	conn := p.p.Get()
	defer conn.Close()
	return conn.Do("GET", args...)
}

// Local calls of the forwarders are ops in this package too.
func (p *Pool) Touch(key string) {
	p.SafeDo("PEXPIRE", key, 30000) // want `redigo expire PEXPIRE key=key ttl=30000/millis$`
	p.Exec("DEL", key)              // want `redigo delete DEL key=key$`
}
