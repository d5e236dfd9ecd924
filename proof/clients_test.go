package proof

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bradfitz/gomemcache/memcache"
	redisv8 "github.com/go-redis/redis/v8"
	redigo "github.com/gomodule/redigo/redis"
	"github.com/redis/rueidis"

	"github.com/lockvet/lockvet/internal/redistest"
	bug8 "github.com/lockvet/lockvet/proof/internal/buggy/goredis8"
	bug9 "github.com/lockvet/lockvet/proof/internal/buggy/goredis9"
	mclock "github.com/lockvet/lockvet/proof/internal/clients/memcache"
	redigolock "github.com/lockvet/lockvet/proof/internal/clients/redigo"
	rueidislock "github.com/lockvet/lockvet/proof/internal/clients/rueidis"
	fix8 "github.com/lockvet/lockvet/proof/internal/fixed/goredis8"
	fix9 "github.com/lockvet/lockvet/proof/internal/fixed/goredis9"
)

// --- 7. each client's acquire, renew and release ---

// lockOps is one client's lock on one key with one token.
type lockOps struct {
	try, unlock, refresh func() (bool, error)
}

// store reads a key's state for the assertions.
type store struct {
	value func(key string) string        // "(no key)" when absent
	ttl   func(key string) time.Duration // -1 no TTL, -2 no key
}

// lockMaker makes the lock on key held with token, with ttl.
type lockMaker func(key, token string, ttl time.Duration) lockOps

const (
	clientTTL   = 10 * time.Second
	clientLong  = time.Hour
	clientSlack = 5 * time.Second // for TTLs counted in whole seconds
)

// templateRun runs the lock protocol with a fixed template: A acquires; B
// is refused; B's renewal and release leave A's lock alone; A's renewal
// extends it; A's release deletes it; B can take it then.
func templateRun(t *testing.T, s store, mk lockMaker, key string) {
	t.Helper()
	a, aLong, b := mk(key, "A", clientTTL), mk(key, "A", clientLong), mk(key, "B", clientLong)
	step := func(what string, f func() (bool, error), want bool) {
		t.Helper()
		got, err := f()
		if err != nil || got != want {
			t.Fatalf("%s: got %v, %v; want %v", what, got, err, want)
		}
	}
	step("A acquires the free lock", a.try, true)
	if v, ttl := s.value(key), s.ttl(key); v != "A" || ttl <= 0 || ttl > clientTTL {
		t.Fatalf("after A's acquire: value %q TTL %s; want A's token, 0 < TTL <= %s", v, ttl, clientTTL)
	}
	step("B's acquire is refused", b.try, false)
	step("B's renewal is refused", b.refresh, false)
	if ttl := s.ttl(key); ttl <= 0 || ttl > clientTTL {
		t.Fatalf("after B's renewal: A's TTL %s; want it untouched (≤ %s)", ttl, clientTTL)
	}
	step("B's release is refused", b.unlock, false)
	if v := s.value(key); v != "A" {
		t.Fatalf("after B's release: value %q; want A's lock kept", v)
	}
	step("A's renewal succeeds", aLong.refresh, true)
	if ttl := s.ttl(key); ttl <= clientTTL+clientSlack {
		t.Fatalf("after A's renewal: TTL %s; want about %s", ttl, clientLong)
	}
	step("A's release succeeds", a.unlock, true)
	if v := s.value(key); v != "(no key)" {
		t.Fatalf("after A's release: value %q; want no key", v)
	}
	step("B acquires the released lock", b.try, true)
}

const (
	templateOK = "acquire; a second acquire is refused; the non-owner's renewal and release change nothing; the owner's renewal extends the TTL; the owner's release deletes the key"
	bareBroken = "the non-owner's renewal rewrites the holder's TTL (10s → 1h) and its release deletes the holder's lock"
)

// bareRun runs the non-owner steps with the buggy release and renewal and
// reports that both touch A's lock.
func bareRun(t *testing.T, s store, mk lockMaker, key string) {
	t.Helper()
	a, b := mk(key, "A", clientTTL), mk(key, "B", clientLong)
	if ok, err := a.try(); !ok || err != nil {
		t.Fatalf("A's acquire: %v, %v", ok, err)
	}
	if _, err := b.refresh(); err != nil {
		t.Fatal(err)
	}
	if ttl := s.ttl(key); ttl <= clientTTL+clientSlack {
		t.Errorf("buggy: B's renewal left A's TTL at %s; want it rewritten to about %s", ttl, clientLong)
	}
	if _, err := b.unlock(); err != nil {
		t.Fatal(err)
	}
	if v := s.value(key); v != "(no key)" {
		t.Errorf("buggy: after B's release the key holds %q; want A's lock deleted", v)
	}
}

// clientCase runs case id for one client on one backend: the buggy
// shape's renewal and release against another owner's lock, then the
// fixed operations through the whole protocol. ops says where the fixed
// operations come from.
func clientCase(t *testing.T, id, backendName string, s store, buggy, fixed lockMaker, ops string) {
	t.Helper()
	bareRun(t, s, buggy, "lock:proof"+id+":buggy")
	templateRun(t, s, fixed, "lock:proof"+id+":fixed")
	record(t, id, backendName, bareBroken, ops+": "+templateOK)
}

func TestProofClients(t *testing.T) {
	t.Parallel()
	t.Run("goredis9", func(t *testing.T) {
		eachRedis(t, func(t *testing.T, be backend) {
			ctx, rdb := context.Background(), be.v9(t)
			clientCase(t, "7a", be.name, redisStore(t, be),
				func(key, token string, ttl time.Duration) lockOps {
					m := &bug9.Mutex{RDB: rdb, Key: key, Token: token, TTL: ttl}
					return lockOps{func() (bool, error) { return m.TryLock(ctx) }, func() (bool, error) { return m.Unlock(ctx) }, func() (bool, error) { return m.Refresh(ctx) }}
				},
				func(key, token string, ttl time.Duration) lockOps {
					m := &fix9.Mutex{RDB: rdb, Key: key, Token: token, TTL: ttl}
					return lockOps{func() (bool, error) { return m.TryLock(ctx) }, func() (bool, error) { return m.Unlock(ctx) }, func() (bool, error) { return m.Refresh(ctx) }}
				}, "lockvet's fixed TryLock, Unlock, Refresh")
		})
	})
	t.Run("goredis8", func(t *testing.T) {
		eachRedis(t, func(t *testing.T, be backend) {
			ctx := context.Background()
			rdb := redisv8.NewClient(&redisv8.Options{Addr: be.addr, MaxRetries: -1})
			t.Cleanup(func() { rdb.Close() })
			clientCase(t, "7b", be.name, redisStore(t, be),
				func(key, token string, ttl time.Duration) lockOps {
					m := &bug8.Mutex{RDB: rdb, Key: key, Token: token, TTL: ttl}
					return lockOps{func() (bool, error) { return m.TryLock(ctx) }, func() (bool, error) { return m.Unlock(ctx) }, func() (bool, error) { return m.Refresh(ctx) }}
				},
				func(key, token string, ttl time.Duration) lockOps {
					m := &fix8.Mutex{RDB: rdb, Key: key, Token: token, TTL: ttl}
					return lockOps{func() (bool, error) { return m.TryLock(ctx) }, func() (bool, error) { return m.Unlock(ctx) }, func() (bool, error) { return m.Refresh(ctx) }}
				}, "lockvet's fixed TryLock, Unlock, Refresh")
		})
	})
	t.Run("redigo", func(t *testing.T) {
		eachRedis(t, func(t *testing.T, be backend) {
			templateRun(t, redisStore(t, be), func(key, token string, ttl time.Duration) lockOps {
				m := &redigolock.Mutex{Conn: redigoConn(t, be), Key: key, Token: token, TTL: ttl}
				return lockOps{m.TryLock, m.Unlock, m.Refresh}
			}, "lock:proof7c")
			record(t, "7c", be.name, "—", templateOK)
		})
	})
	t.Run("rueidis", func(t *testing.T) {
		eachRedis(t, func(t *testing.T, be backend) {
			ctx, c := context.Background(), rueidisClient(t, be)
			templateRun(t, redisStore(t, be), func(key, token string, ttl time.Duration) lockOps {
				m := &rueidislock.Mutex{Client: c, Key: key, Token: token, TTL: ttl}
				return lockOps{func() (bool, error) { return m.TryLock(ctx) }, func() (bool, error) { return m.Unlock(ctx) }, func() (bool, error) { return m.Refresh(ctx) }}
			}, "lock:proof7d")
			record(t, "7d", be.name, "—", templateOK)
		})
	})
	t.Run("memcache", func(t *testing.T) {
		t.Run(realMemc, func(t *testing.T) {
			t.Parallel()
			mc, s := memcachedStore(t)
			templateRun(t, s, func(key, token string, ttl time.Duration) lockOps {
				m := &mclock.Mutex{MC: mc, Key: key, Token: token, TTL: ttl}
				return lockOps{m.TryLock, m.Unlock, m.Refresh}
			}, "lock:proof7e")
			record(t, "7e", realMemc, "—", templateOK)
		})
	})
}

func redisStore(t *testing.T, be backend) store {
	admin := be.v9(t)
	return store{
		value: func(key string) string { return get(t, admin, key) },
		ttl: func(key string) time.Duration {
			n := pttl(t, admin, key)
			if n < 0 {
				return time.Duration(n)
			}
			return time.Duration(n) * time.Millisecond
		},
	}
}

func rueidisClient(t *testing.T, be backend) rueidis.Client {
	c, err := rueidis.NewClient(rueidis.ClientOption{InitAddress: []string{be.addr}, DisableCache: true, DisableRetry: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// memcachedStore starts a memcached and returns a client and its store.
func memcachedStore(t *testing.T) (*memcache.Client, store) {
	srv := redistest.Memcached(t)
	mc := memcache.New(srv.Addr)
	// gomemcache's default 500 ms I/O timeout fails on a loaded CI machine;
	// the scenarios measure TTLs in seconds, not latency.
	mc.Timeout = 5 * time.Second
	return mc, store{
		value: func(key string) string {
			it, err := mc.Get(key)
			if err == memcache.ErrCacheMiss {
				return "(no key)"
			}
			if err != nil {
				t.Fatal(err)
			}
			return string(it.Value)
		},
		ttl: func(key string) time.Duration { return memcachedTTL(t, srv.Addr, key) },
	}
}

func redigoConn(t *testing.T, be backend) redigo.Conn {
	c, err := redigo.Dial("tcp", be.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// memcachedTTL asks memcached for the remaining TTL of key with the meta
// get command (mg key t), which gomemcache does not expose.
func memcachedTTL(t *testing.T, addr, key string) time.Duration {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "mg %s t\r\n", key)
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(line)
	switch {
	case len(f) == 1 && f[0] == "EN":
		return -2
	case len(f) == 2 && f[0] == "HD" && strings.HasPrefix(f[1], "t"):
		n, err := strconv.Atoi(f[1][1:])
		if err != nil {
			t.Fatalf("mg: %q", line)
		}
		if n < 0 {
			return -1
		}
		return time.Duration(n) * time.Second
	}
	t.Fatalf("mg %s t: unexpected reply %q", key, line)
	return 0
}

// --- 6b. redigo SET NX: busy is (nil, nil) ---

func redigoAcquireResult(t *testing.T, be backend) {
	const key = "lock:proof6b"
	c := redigoConn(t, be)
	if _, err := c.Do("SET", key, "A", "NX", "PX", longTTL.Milliseconds()); err != nil {
		t.Fatal(err)
	}
	// What code that reads only the error of SET NX sees.
	reply, err := c.Do("SET", key, "B", "NX", "PX", longTTL.Milliseconds())
	if reply != nil || err != nil {
		t.Fatalf("redigo SET NX on a held key: %#v, %v; want nil, nil", reply, err)
	}
	m := &redigolock.Mutex{Conn: c, Key: key, Token: "B", TTL: longTTL}
	if must(m.TryLock())(t) {
		t.Errorf("lock held by A: the template's TryLock reported it taken")
	}
	if v := get(t, be.v9(t), key); v != "A" {
		t.Fatalf("the lock holds %q, want A's", v)
	}
	record(t, "6b", be.name,
		"SET NX on a held key answers nil, nil: code that checks only the error goes on as if it held the lock",
		"the rewrite-table template (redis.String; ErrNil means busy) reports busy (false, nil)")
}
