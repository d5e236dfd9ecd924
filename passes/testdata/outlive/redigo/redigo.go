package redigo

import (
	"context"
	"errors"
	"time"

	"github.com/gomodule/redigo/redis"
)

var errBusy = errors.New("busy")

var unlock = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

var renew = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

func rebuild(ctx context.Context) error { return ctx.Err() }

// PX 30000 is 30 s; the work gets 2 minutes.
func report(ctx context.Context, c redis.Conn, key, token string) error {
	reply, err := c.Do("SET", key, token, "NX", "PX", 30000)
	if err != nil {
		return err
	}
	if reply == nil {
		return errBusy
	}
	defer unlock.Do(c, key, token)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // want `the work under lock key gets 2m0s \(context\.WithTimeout\), not less than its TTL 30s: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return rebuild(ctx)
}

// EX 60 is a minute; the sleep as long.
func throttle(c redis.Conn, key, token string) error {
	if _, err := redis.String(c.Do("SET", key, token, "NX", "EX", 60)); err != nil {
		return err
	}
	time.Sleep(60 * time.Second) // want `time.Sleep\(1m0s\) while holding lock key, whose TTL is 1m0s`
	_, err := c.Do("DEL", key)
	return err
}

// --- silent ---

// Renewed by a compare-and-pexpire script while the work runs.
func renewed(c redis.Conn, key, token string, done <-chan struct{}) error {
	if _, err := redis.String(c.Do("SET", key, token, "NX", "PX", 30000)); err != nil {
		return err
	}
	defer unlock.Do(c, key, token)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(10 * time.Second):
				renew.Do(c, key, token, 30000)
			}
		}
	}()
	time.Sleep(2 * time.Minute)
	return nil
}

// 30 000 ms is longer than 20 s.
func shorter(ctx context.Context, c redis.Conn, key, token string) error {
	if _, err := redis.String(c.Do("SET", key, token, "NX", "PX", 30000)); err != nil {
		return err
	}
	defer unlock.Do(c, key, token)
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	return rebuild(ctx)
}
