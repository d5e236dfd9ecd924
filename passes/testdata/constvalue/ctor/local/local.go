// Package local has a lock type whose constructor is called in its own
// package.
package local

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

var rdb = redis.NewClient(&redis.Options{})

type lock struct {
	key, value string
}

func newLock(key, value string) *lock {
	return &lock{key: key, value: value}
}

func (l *lock) acquire(ctx context.Context) bool {
	return rdb.SetNX(ctx, l.key, l.value, time.Minute).Val()
}

func (l *lock) release(ctx context.Context) {
	rdb.Del(ctx, l.key)
}

func job(ctx context.Context) {
	l := newLock("job", "1") // want `the lock value passed to newLock is the constant "1": newLock keeps it in lock.value, which acquire writes with SetNX \(local/local.go:23\) and release releases`
	if l.acquire(ctx) {
		defer l.release(ctx)
	}
}
