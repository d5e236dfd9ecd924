package v8

import (
	"context"
	"time"

	"github.com/go-redis/redis/v8"
)

const lockTimeout = 10

var extend = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

type Locker struct {
	client  *redis.ClusterClient
	seconds int32
	ttl     time.Duration
}

// Bug: go-redis v8 rounds 10ns up to a 1 ms lock.
func (l *Locker) Lock(ctx context.Context, key, tok string) (bool, error) {
	return l.client.SetNX(ctx, key, tok, lockTimeout).Result() // want `TTL lockTimeout is 10ns \(a time\.Duration counts nanoseconds\), so the lock expires within 1 ms; declare lockTimeout as 10 \* time\.Second or 10 \* time\.Millisecond`
}

// Bug: seconds in an int32 field.
func (l *Locker) LockArgs(ctx context.Context, key, tok string) error {
	return l.client.SetArgs(ctx, key, tok, redis.SetArgs{Mode: "NX", TTL: time.Duration(l.seconds)}).Err() // want `TTL time\.Duration\(l\.seconds\) reads l\.seconds, a count of seconds, as nanoseconds`
}

// Bug: SETEX (v8 spelling) with a bare number.
func cache(ctx context.Context, rdb redis.Cmdable, key string) {
	rdb.SetEX(ctx, key, "v", 300) // want `TTL 300 is 300ns`
}

// Bug: EXPIRE 0 deletes the lock.
func (l *Locker) Persist(ctx context.Context, key string) {
	l.client.Expire(ctx, key, 0) // want `Expire with a TTL of 0 deletes key at once`
}

// Bug: Duration script argument; fixed with .Milliseconds().
func (l *Locker) Extend(ctx context.Context, key, tok string) (int64, error) {
	return extend.Run(ctx, l.client, []string{key}, tok, l.ttl).Int64() // want `l\.ttl, a time\.Duration passed raw as script argument ARGV\[2\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass l\.ttl\.Milliseconds\(\)`
}

// Bug: Eval of an inline PEXPIRE script.
func (l *Locker) ExtendEval(ctx context.Context, key, tok string) {
	l.client.Eval(ctx, `return redis.call("pexpire", KEYS[1], ARGV[1])`, []string{key}, l.ttl) // want `l\.ttl, a time\.Duration passed raw as script argument ARGV\[1\], arrives as nanoseconds, a million times too long for PEXPIRE/PX; pass l\.ttl\.Milliseconds\(\)`
}

// Silent.
func (l *Locker) fine(ctx context.Context, key, tok string, deadline time.Time) {
	l.client.SetNX(ctx, key, tok, time.Duration(l.seconds)*time.Second)
	l.client.SetNX(ctx, key, tok, l.ttl)
	l.client.Expire(ctx, key, time.Until(deadline))
	extend.Run(ctx, l.client, []string{key}, tok, l.ttl.Milliseconds())
	l.client.Set(ctx, key, tok, 0)
}
