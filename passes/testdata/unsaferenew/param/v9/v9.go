package v9

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

type Locker struct {
	rdb *redis.Client
	ttl time.Duration
}

// Lock(key, owner) and KeepAlive(ctx, key, owner): the owner is the
// caller's, passed to both.
func (l *Locker) Lock(ctx context.Context, key, owner string) (bool, error) {
	return l.rdb.SetNX(ctx, "lock:"+key, owner, l.ttl).Result()
}

func (l *Locker) Unlock(ctx context.Context, key, owner string) error {
	return unlockScript.Run(ctx, l.rdb, []string{"lock:" + key}, owner).Err()
}

var unlockScript = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func (l *Locker) KeepAlive(ctx context.Context, key, owner string) {
	t := time.NewTicker(l.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := l.rdb.Expire(ctx, "lock:"+key, l.ttl).Err(); err != nil { // want `Expire renews lock "lock:" \+ key in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script$`
				return
			}
		}
	}
}

// --- no fix, and the message says why ---

// owner of another type: not what the acquire wrote.
func (l *Locker) KeepAliveID(ctx context.Context, key string, owner int) {
	for range time.Tick(time.Second) {
		l.rdb.Expire(ctx, "lock:"+key, l.ttl) // want `in a loop without checking the token.*\(no fix: the acquire's value owner is not at hand here\)`
	}
}

// EXPIREAT sets a deadline, not a TTL from now.
func (l *Locker) KeepAliveAt(ctx context.Context, key, owner string) {
	for range time.Tick(time.Second) {
		l.rdb.ExpireAt(ctx, "lock:"+key, time.Now().Add(l.ttl)) // want `in a loop without checking the token.*\(no fix: no compare-and-pexpire does what ExpireAt does\)`
	}
}
