// Package lock holds helpers that queue lock commands on a pipeline or
// connection their callers hand them; package order under
// txacquire/helpers calls them.
package lock

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

// TryLock queues a SETNX with no TTL on the caller's pipeline.
func TryLock(ctx context.Context, pipe redis.Pipeliner, name string) *redis.BoolCmd { // want TryLock:"acquire-funcs:key=2,ttl=none queued on 1"
	return pipe.SetNX(ctx, "lock:"+name, "1", 0)
}

// KeepLock queues an EXPIRE of a TTL it fixes itself.
func KeepLock(ctx context.Context, pipe redis.Pipeliner, name string) { // want KeepLock:"expire-funcs:key=2 queued on 1"
	pipe.Expire(ctx, "lock:"+name, time.Minute)
}

// Hit queues a rate-limit counter's INCR; Window its EXPIRE.
func Hit(ctx context.Context, pipe redis.Pipeliner, user string) *redis.IntCmd {
	return pipe.Incr(ctx, "lock:"+user)
}

func Window(ctx context.Context, pipe redis.Pipeliner, user string, d time.Duration) { // want Window:"expire-funcs:key=2,ttl=3,unit=duration queued on 1"
	pipe.Expire(ctx, "lock:"+user, d)
}

// Mark queues an idempotency marker that carries its TTL.
func Mark(ctx context.Context, pipe redis.Pipeliner, id string) *redis.BoolCmd { // want Mark:"acquire-funcs:key=2 queued on 1"
	return pipe.SetNX(ctx, "seen:"+id, "1", 24*time.Hour)
}

// SendLock and SendTTL queue on the caller's redigo connection.
func SendLock(c redigo.Conn, name string) error { // want SendLock:"acquire-funcs:key=1,ttl=none queued on 0"
	return c.Send("SETNX", "lock:"+name, "1")
}

func SendTTL(c redigo.Conn, name string) error { // want SendTTL:"expire-funcs:key=1 queued on 0"
	return c.Send("EXPIRE", "lock:"+name, 60)
}
