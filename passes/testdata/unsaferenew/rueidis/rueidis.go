package rueidis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"
)

func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// A keep-alive goroutine: PEXPIRE with a count of milliseconds taken from
// a time.Duration.
func lockAndKeepAlive(ctx context.Context, client rueidis.Client, key string, ttl time.Duration) (func(), error) {
	token := newToken()
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().PxMilliseconds(ttl.Milliseconds()).Build()).Error(); err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(ttl / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				client.Do(ctx, client.B().Pexpire().Key(key).Milliseconds(ttl.Milliseconds()).Build()) // want `PEXPIRE renews lock key in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script`
			}
		}
	}()
	return func() { close(done) }, nil
}

// A lock type: the token and the key are fields; EXPIRE with a constant
// count of seconds, its error read.
type Mutex struct {
	client rueidis.Client
	key    string
	token  string
}

func (m *Mutex) TryLock(ctx context.Context) error {
	m.token = newToken()
	return m.client.Do(ctx, m.client.B().Set().Key(m.key).Value(m.token).Nx().ExSeconds(30).Build()).Error()
}

func (m *Mutex) Refresh(ctx context.Context) error {
	return m.client.Do(ctx, m.client.B().Expire().Key(m.key).Seconds(30).Xx().Build()).Error() // want `EXPIRE renews lock m.key in Refresh without checking`
}

// EXPIRE with a count of seconds computed from a time.Duration, in a loop;
// the reply is read with AsInt64.
func extendLoop(ctx context.Context, client rueidis.Client, key, token string, ttl time.Duration) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().Ex(ttl).Build()).Error(); err != nil {
		return err
	}
	for range 10 {
		time.Sleep(ttl / 2)
		if n, err := client.Do(ctx, client.B().Expire().Key(key).Seconds(int64(ttl/time.Second)).Build()).AsInt64(); err != nil || n == 0 { // want `EXPIRE renews lock key in a loop`
			return err
		}
	}
	return nil
}

// A count of seconds of unknown origin: multiplied out.
func extendSeconds(ctx context.Context, client rueidis.Client, key, token string, secs int64) {
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(secs).Build())
	go func() {
		for {
			time.Sleep(time.Second)
			client.Do(ctx, client.B().Expire().Key(key).Seconds(secs).Build()) // want `EXPIRE renews lock key in a loop`
		}
	}()
}

// On a dedicated connection: no script runs there, no fix.
func dedicated(ctx context.Context, c rueidis.DedicatedClient, key, token string) {
	c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build())
	for range 3 {
		c.Do(ctx, c.B().Expire().Key(key).Seconds(30).Build()) // want `EXPIRE renews lock key in a loop`
	}
}

// EXPIRE GT makes the renewal conditional on the TTL: no fix.
func expireGT(ctx context.Context, client rueidis.Client, key, token string) {
	client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build())
	for range 3 {
		client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Gt().Build()) // want `EXPIRE renews lock key in a loop`
	}
}

// --- silent ---

var renewScript = rueidis.NewLuaScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

// The owner-checked renewal.
func (m *Mutex) Extend(ctx context.Context, ttl time.Duration) (bool, error) {
	n, err := renewScript.Exec(ctx, m.client, []string{m.key}, []string{m.token, "30000"}).AsInt64()
	return n == 1, err
}

// SETNX then EXPIRE: LV101's finding, not a renewal.
func first(ctx context.Context, client rueidis.Client, key, token string) {
	for range 3 {
		if ok, _ := client.Do(ctx, client.B().Setnx().Key(key).Value(token).Build()).AsBool(); ok {
			client.Do(ctx, client.B().Expire().Key(key).Seconds(30).Build())
			return
		}
	}
}

// rueidislock renews its own keys.
func withLocker(ctx context.Context, locker rueidislock.Locker) error {
	_, cancel, err := locker.WithContext(ctx, "job")
	if err != nil {
		return err
	}
	defer cancel()
	return nil
}
