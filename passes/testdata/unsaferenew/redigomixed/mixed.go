// Package redigomixed uses go-redis and redigo: each client gets its own
// renewal script variable, named after the client.
package redigomixed

import (
	"context"
	"time"

	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/go-redis/v9"
)

type Lock struct {
	rdb   *redis.Client
	conn  redigo.Conn
	key   string
	token string
	ttl   time.Duration
}

func (l *Lock) Acquire(ctx context.Context) bool {
	return l.rdb.SetNX(ctx, l.key, l.token, l.ttl).Val()
}

func (l *Lock) Refresh(ctx context.Context) error {
	return l.rdb.PExpire(ctx, l.key, l.ttl).Err() // want `PExpire renews lock l.key in Refresh`
}

func (l *Lock) Extend() error {
	_, err := l.conn.Do("PEXPIRE", l.key, 30000) // want `PEXPIRE renews lock l.key in Extend`
	return err
}
