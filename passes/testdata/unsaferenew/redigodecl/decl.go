// Package redigodecl has no renewal script: the fix declares one, with
// redis.NewScript's key count.
package redigodecl

import (
	"time"

	"github.com/gomodule/redigo/redis"
)

type Lock struct {
	conn  redis.Conn
	key   string
	token string
}

func (l *Lock) Acquire() (bool, error) {
	reply, err := l.conn.Do("SET", l.key, l.token, "NX", "PX", 30000)
	return reply != nil, err
}

func (l *Lock) Refresh() error {
	_, err := l.conn.Do("PEXPIRE", l.key, 30000) // want `PEXPIRE renews lock l.key in Refresh`
	return err
}

// A script with the same source but two keys is not the renewal: not reused.
var other = redis.NewScript(2, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

func keep(l *Lock, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(10 * time.Second):
			l.conn.Do("EXPIRE", l.key, 30) // want `EXPIRE renews lock l.key in a loop`
		}
	}
}
