package rueidis

import (
	"context"
	"errors"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
)

var errBusy = errors.New("busy")

var unlock = rueidis.NewLuaScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func rebuild(ctx context.Context) error { return ctx.Err() }

// PX in milliseconds: 20 s, and the work given a minute.
func report(ctx context.Context, client rueidis.Client, key, token string) error {
	err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(20000).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer unlock.Exec(ctx, client, []string{key}, []string{token})
	ctx, cancel := context.WithTimeout(ctx, time.Minute) // want `the work under lock key gets 1m0s \(context\.WithTimeout\), not less than its TTL 20s: the lock may expire mid-work; shorten it or renew the lock`
	defer cancel()
	return rebuild(ctx)
}

// A Duration TTL, and the sleep as long.
func throttle(ctx context.Context, client rueidis.Client, key, token string) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Ex(10*time.Second).Build()).Error(); err != nil {
		return err
	}
	time.Sleep(10 * time.Second) // want `time.Sleep\(10s\) while holding lock key, whose TTL is 10s`
	return client.Do(ctx, client.B().Del().Key(key).Build()).Error()
}

// rueidiscompat, the go-redis-shaped adapter.
func compat(ctx context.Context, client rueidis.Client, key, token string) error {
	c := rueidiscompat.NewAdapter(client)
	if !c.SetNX(ctx, key, token, 30*time.Second).Val() {
		return errBusy
	}
	defer c.Del(ctx, key)
	time.Sleep(time.Minute) // want `time.Sleep\(1m0s\) while holding lock key, whose TTL is 30s`
	return nil
}

// --- silent ---

// Renewed with PEXPIRE while the work runs.
func renewed(ctx context.Context, client rueidis.Client, key, token string) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(10).Build()).Error(); err != nil {
		return err
	}
	defer unlock.Exec(ctx, client, []string{key}, []string{token})
	go func() {
		for range time.Tick(3 * time.Second) {
			client.Do(ctx, client.B().Pexpire().Key(key).Milliseconds(10000).Build())
		}
	}()
	time.Sleep(time.Minute)
	return nil
}

// A compat lock whose work ends first.
func compatShorter(ctx context.Context, client rueidis.Client, key, token string) error {
	c := rueidiscompat.NewAdapter(client)
	if !c.SetNX(ctx, key, token, time.Minute).Val() {
		return errBusy
	}
	defer c.Del(ctx, key)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return rebuild(ctx)
}

// A caller's deadline.
func callers(ctx context.Context, client rueidis.Client, key, token string, d time.Duration) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(10).Build()).Error(); err != nil {
		return err
	}
	defer unlock.Exec(ctx, client, []string{key}, []string{token})
	time.Sleep(d)
	return nil
}
