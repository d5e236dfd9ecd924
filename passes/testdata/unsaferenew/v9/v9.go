package v9

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

const ttl = 30 * time.Second

func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// A keep-alive goroutine with a ticker: the common shape.
func lockAndKeepAlive(ctx context.Context, rdb *redis.Client, key string) (func(), error) {
	token := newToken()
	ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil || !ok {
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
				rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a loop without checking the token, so it can extend another holder's lock; use a compare-and-pexpire script`
			}
		}
	}()
	return func() { close(done) }, nil
}

// A lock type: TryLock in one method, Refresh in another. The token is a
// field, the key a field; the receiver names differ.
type Mutex struct {
	rdb   redis.UniversalClient
	key   string
	token string
	ttl   time.Duration
}

func (m *Mutex) TryLock(ctx context.Context) (bool, error) {
	m.token = newToken()
	return m.rdb.SetNX(ctx, m.key, m.token, m.ttl).Result()
}

func (mu *Mutex) Refresh(ctx context.Context) error {
	return mu.rdb.PExpire(ctx, mu.key, mu.ttl).Err() // want `PExpire renews lock mu.key in Refresh`
}

// Result read with Result(): the fix reads the script's reply with Bool().
func (m *Mutex) Extend(ctx context.Context) (bool, error) {
	ok, err := m.rdb.Expire(ctx, m.key, 2*m.ttl).Result() // want `Expire renews lock m.key in Extend`
	if err != nil {
		return false, err
	}
	return ok, nil
}

// Result read with Val(): reported, no fix (the script's reply is not a bool).
func (m *Mutex) KeepAlive(ctx context.Context) bool {
	return m.rdb.Expire(ctx, m.key, m.ttl).Val() // want `Expire renews lock m.key in KeepAlive`
}

// A constant key, acquired in one function and renewed in a loop in
// another; the token is not in scope there: reported, no fix.
const reportLock = "lock:report"

func startReport(ctx context.Context, rdb *redis.Client) bool {
	return rdb.SetNX(ctx, reportLock, newToken(), time.Minute).Val()
}

func runReport(ctx context.Context, rdb *redis.Client, batches [][]string) {
	for range batches {
		rdb.Expire(ctx, reportLock, time.Minute) // want `Expire renews lock reportLock in a loop`
	}
}

// A key built with a format string; the renewer is started with go.
func lockJob(ctx context.Context, rdb redis.Cmdable, id int) bool {
	if !rdb.SetNX(ctx, fmt.Sprintf("lock:job:%d", id), newToken(), ttl).Val() {
		return false
	}
	go watchJob(ctx, rdb, id)
	return true
}

func watchJob(ctx context.Context, rdb redis.Cmdable, id int) {
	<-time.After(ttl / 2)
	rdb.Expire(ctx, fmt.Sprintf("lock:job:%d", id), ttl) // want `Expire renews lock fmt.Sprintf\("lock:job:%d", id\) in a goroutine`
}

// A for loop in the acquiring function, on an interface-typed client.
func processAll(ctx context.Context, rdb redis.Cmdable, items []string) error {
	key, token := "lock:batch", newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return nil
	}
	for i := 0; i < len(items); i++ {
		if err := rdb.Expire(ctx, key, ttl).Err(); err != nil { // want `Expire renews lock key in a loop`
			return err
		}
	}
	return nil
}

// A GET compared with the token, then EXPIRE: two round trips.
func checkThenExpire(ctx context.Context, rdb *redis.Client, key string, stop <-chan struct{}) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	for {
		select {
		case <-stop:
			return
		case <-time.After(ttl / 2):
		}
		if rdb.Get(ctx, key).Val() != token {
			return
		}
		rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a loop after a separate GET`
	}
}

// A helper called in a loop by the function that holds the lock.
func touch(ctx context.Context, rdb *redis.Client, key string) {
	rdb.Expire(ctx, key, ttl) // want `Expire renews lock key by touch, called in a loop`
}

func withTouch(ctx context.Context, rdb *redis.Client, key string, steps []func()) {
	if !rdb.SetNX(ctx, key, newToken(), ttl).Val() {
		return
	}
	for _, step := range steps {
		step()
		touch(ctx, rdb, key)
	}
}

// A timer callback.
func withTimer(ctx context.Context, rdb *redis.Client, key string) *time.Timer {
	token := newToken()
	rdb.SetNX(ctx, key, token, ttl)
	return time.AfterFunc(ttl/2, func() {
		_ = rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a timer callback`
	})
}

// An unchecked Lua expire is the same bug: reported, no fix.
var touchScript = redis.NewScript(`return redis.call("pexpire", KEYS[1], ARGV[1])`)

func luaTouch(ctx context.Context, rdb *redis.Client, key string, t *time.Ticker) {
	if !rdb.SetNX(ctx, key, newToken(), ttl).Val() {
		return
	}
	for range t.C {
		touchScript.Run(ctx, rdb, []string{key}, ttl.Milliseconds()) // want `script renews lock key in a loop without comparing its value`
	}
}

// EXPIREAT and EXPIRE GT renew too: reported, no fix.
func expireAt(ctx context.Context, rdb *redis.Client, key string, t *time.Ticker) {
	token := newToken()
	if !rdb.SetNX(ctx, key, token, ttl).Val() {
		return
	}
	for range t.C {
		rdb.ExpireAt(ctx, key, time.Now().Add(ttl)) // want `ExpireAt renews lock key in a loop`
		rdb.ExpireGT(ctx, key, ttl)                 // want `ExpireGT renews lock key in a loop`
	}
}

// A client type that cannot run scripts: reported, no fix.
func narrowClient(ctx context.Context, locker redis.StringCmdable, rdb redis.GenericCmdable, key string, t *time.Ticker) {
	token := newToken()
	locker.SetNX(ctx, key, token, ttl)
	for range t.C {
		rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a loop`
	}
}

// A local named like the script variable hides it here: reported, no fix.
func shadowed(ctx context.Context, rdb *redis.Client, key string, t *time.Ticker) {
	token := newToken()
	rdb.SetNX(ctx, key, token, ttl)
	renewLua := t
	for range renewLua.C {
		rdb.Expire(ctx, key, ttl) // want `Expire renews lock key in a loop`
	}
}

// --- silent ---

// LV101's finding (no TTL at acquire, EXPIRE after): not this check's.
func firstTTL(ctx context.Context, rdb *redis.Client, key string, t *time.Ticker) {
	rdb.SetNX(ctx, key, newToken(), 0)
	for range t.C {
		rdb.Expire(ctx, key, ttl)
	}
}

// The owner-checked renewal.
var renewLua = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

func checkedRenew(ctx context.Context, rdb *redis.Client, key string, t *time.Ticker) {
	token := newToken()
	rdb.SetNX(ctx, key, token, ttl)
	for range t.C {
		if n, err := renewLua.Run(ctx, rdb, []string{key}, token, ttl.Milliseconds()).Int(); err != nil || n == 0 {
			return
		}
	}
}

// Cache TTL refresh and session sliding expiry: not lock keys.
func refreshCache(ctx context.Context, rdb *redis.Client, keys []string) {
	for _, k := range keys {
		rdb.Expire(ctx, "cache:"+k, time.Hour)
	}
}

type Sessions struct{ rdb *redis.Client }

func (s *Sessions) Refresh(ctx context.Context, id string) {
	s.rdb.Expire(ctx, fmt.Sprintf("session:%s", id), 30*time.Minute)
}

// INCR+EXPIRE rate-limit counter.
func allow(ctx context.Context, rdb *redis.Client, user string) bool {
	for i := 0; i < 1; i++ {
		n := rdb.Incr(ctx, "rate:"+user).Val()
		if n == 1 {
			rdb.Expire(ctx, "rate:"+user, time.Minute)
		}
		return n <= 100
	}
	return false
}

// A lock key expired once, not as a renewal.
func lengthen(ctx context.Context, rdb *redis.Client, key string) {
	token := newToken()
	if rdb.SetNX(ctx, key, token, ttl).Val() {
		rdb.Expire(ctx, key, 2*ttl)
	}
}

// EXPIRE 0 deletes (LV104's finding); a pipelined EXPIRE is another check's.
func deleteByExpire(ctx context.Context, rdb *redis.Client, key string, t *time.Ticker) {
	rdb.SetNX(ctx, key, newToken(), ttl)
	for range t.C {
		rdb.Expire(ctx, key, 0)
		rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			p.Expire(ctx, key, ttl)
			return nil
		})
	}
}

// A function named like a renewal, on a key nobody acquires.
func extendSession(ctx context.Context, rdb *redis.Client, sid string) {
	rdb.Expire(ctx, "sess:"+sid, time.Hour)
}

// A loop that acquires several locks sets each one's TTL: not a renewal.
func lockAll(ctx context.Context, rdb *redis.Client, keys []string, token string) {
	for _, k := range keys {
		if rdb.SetNX(ctx, k, token, ttl).Val() {
			rdb.Expire(ctx, k, 2*ttl)
		}
	}
}

// A retry loop around the acquire.
func retry(ctx context.Context, rdb *redis.Client, key, token string) bool {
	for i := 0; i < 3; i++ {
		if rdb.SetNX(ctx, key, token, ttl).Val() {
			rdb.Expire(ctx, key, ttl)
			return true
		}
		time.Sleep(time.Second)
	}
	return false
}
