package rueidis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/go-redsync/redsync/v4"
	rsrueidis "github.com/go-redsync/redsync/v4/redis/rueidis"
	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidiscompat"
	"github.com/redis/rueidis/rueidislock"
)

var ErrLocked = errors.New("locked")

func newToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// --- reported ---

// Acquire with a token and a TTL, release with a deferred DEL.
func deferred(ctx context.Context, client rueidis.Client, key string, work func()) error {
	token := newToken()
	err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error()
	if rueidis.IsRedisNil(err) {
		return ErrLocked
	}
	if err != nil {
		return err
	}
	defer client.Do(ctx, client.B().Del().Key(key).Build()) // want `DEL of lock key key does not check the owner, so after the TTL it can delete another holder's lock; delete only while it holds the token`
	work()
	return nil
}

// Lock/Unlock pair through struct fields; UNLINK; the count is read.
type Mutex struct {
	client rueidis.Client
	key    string
	token  string
}

func (m *Mutex) Lock(ctx context.Context, ttl time.Duration) error {
	m.token = newToken()
	return m.client.Do(ctx, m.client.B().Set().Key(m.key).Value(m.token).Nx().PxMilliseconds(ttl.Milliseconds()).Build()).Error()
}

func (m *Mutex) Unlock(ctx context.Context) (bool, error) {
	n, err := m.client.Do(ctx, m.client.B().Unlink().Key(m.key).Build()).AsInt64() // want `UNLINK of lock key m.key does not check the owner`
	return n == 1, err
}

// A constant value: no owner to compare, no fix.
func constValue(ctx context.Context, client rueidis.Client, key string) {
	if client.Do(ctx, client.B().Set().Key(key).Value("1").Nx().ExSeconds(10).Build()).Error() != nil {
		return
	}
	client.Do(ctx, client.B().Del().Key(key).Build()) // want `DEL of lock key key does not check the owner, and every holder writes "1": it can delete another holder's lock \(LV204\)`
}

// The DEL is built in a variable: reported, no fix.
func viaVariable(ctx context.Context, client rueidis.Client, key, token string) {
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(10).Build()).Error() != nil {
		return
	}
	del := client.B().Del().Key(key).Build()
	client.Do(ctx, del) // want `DEL of lock key key does not check the owner`
}

// On a dedicated connection, where Lua scripts cannot run: no fix.
func dedicated(ctx context.Context, client rueidis.Client, key, token string) error {
	return client.Dedicated(func(c rueidis.DedicatedClient) error {
		if err := c.Do(ctx, c.B().Set().Key(key).Value(token).Nx().ExSeconds(10).Build()).Error(); err != nil {
			return err
		}
		return c.Do(ctx, c.B().Del().Key(key).Build()).Error() // want `DEL of lock key key does not check the owner`
	})
}

// In a batch: no fix.
func batched(ctx context.Context, client rueidis.Client, key, token, other string) {
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(10).Build()).Error() != nil {
		return
	}
	client.DoMulti(ctx,
		client.B().Del().Key(key).Build(), // want `DEL of lock key key does not check the owner`
		client.B().Del().Key(other).Build(),
	)
}

// rueidiscompat is go-redis shaped: the release becomes a run of a
// rueidiscompat script.
func compat(ctx context.Context, client rueidis.Client, key string) {
	c := rueidiscompat.NewAdapter(client)
	token := newToken()
	if !c.SetNX(ctx, key, token, 30*time.Second).Val() {
		return
	}
	defer c.Del(ctx, key) // want `Del of lock key key does not check the owner`
}

// --- silent ---

var unlockScript = rueidis.NewLuaScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

// The compare-and-delete script.
func scripted(ctx context.Context, client rueidis.Client, key string) error {
	token := newToken()
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error(); err != nil {
		return err
	}
	return unlockScript.Exec(ctx, client, []string{key}, []string{token}).Error()
}

// DELEX IFEQ (Redis 8.4).
func delex(ctx context.Context, client rueidis.Client, key, token string) {
	if client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error() == nil {
		client.Do(ctx, client.B().Delex().Key(key).Ifeq(token).Build())
	}
}

// WATCH, GET, compare, then DEL in MULTI/EXEC: the optimistic release.
func watched(ctx context.Context, client rueidis.Client, key, token string) error {
	if err := client.Do(ctx, client.B().Set().Key(key).Value(token).Nx().ExSeconds(30).Build()).Error(); err != nil {
		return err
	}
	return client.Dedicated(func(c rueidis.DedicatedClient) error {
		c.Do(ctx, c.B().Watch().Key(key).Build())
		v, err := c.Do(ctx, c.B().Get().Key(key).Build()).ToString()
		if err != nil || v != token {
			return err
		}
		c.DoMulti(ctx, c.B().Multi().Build(), c.B().Del().Key(key).Build(), c.B().Exec().Build())
		return nil
	})
}

// SETNX with no TTL, nothing expires it (LV103's lock): reported.
func noTTL(ctx context.Context, client rueidis.Client, key string) {
	client.Do(ctx, client.B().Setnx().Key(key).Value("1").Build())
	client.Do(ctx, client.B().Del().Key(key).Build()) // want `DEL of lock key key does not check the owner, and every holder writes "1": once the lock has its TTL \(LV103\)`
}

// rueidislock and redsync release with their own scripts.
func withLocker(ctx context.Context, locker rueidislock.Locker) error {
	_, cancel, err := locker.WithContext(ctx, "job")
	if err != nil {
		return err
	}
	cancel()
	return nil
}

func withRedsync(client rueidis.Client) error {
	m := redsync.New(rsrueidis.NewPool(rueidiscompat.NewAdapter(client))).NewMutex("job")
	if err := m.Lock(); err != nil {
		return err
	}
	_, err := m.Unlock()
	return err
}
