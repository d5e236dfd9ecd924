package proof

// lockvet's own fixes for the clients whose adapters are newer than
// go-redis: redigo, rueidis, gomemcache. The shapes are in
// internal/adapters/buggy, lockvet's fixes of them in
// internal/adapters/fixed (checked by TestProofShapes like the others).
// Each operation lockvet fixes runs from the fixed package; an operation
// it reports without a fix runs from the rewrite-table template in
// internal/clients.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	redigo "github.com/gomodule/redigo/redis"

	bugmc "github.com/lockvet/lockvet/proof/internal/adapters/buggy/memcache"
	bugredigo "github.com/lockvet/lockvet/proof/internal/adapters/buggy/redigo"
	bugrueidis "github.com/lockvet/lockvet/proof/internal/adapters/buggy/rueidis"
	fixmc "github.com/lockvet/lockvet/proof/internal/adapters/fixed/memcache"
	fixredigo "github.com/lockvet/lockvet/proof/internal/adapters/fixed/redigo"
	fixrueidis "github.com/lockvet/lockvet/proof/internal/adapters/fixed/rueidis"
	mclock "github.com/lockvet/lockvet/proof/internal/clients/memcache"
	redigolock "github.com/lockvet/lockvet/proof/internal/clients/redigo"
	rueidislock "github.com/lockvet/lockvet/proof/internal/clients/rueidis"
)

// lockvetOrTemplate takes each operation from lockvet's fixed package
// when lockvet fixed it (or found nothing to fix), and from the
// rewrite-table template when lockvet reports it without a fix. It
// returns the operations and a sentence saying where each came from.
func lockvetOrTemplate(t *testing.T, pkg string, fixed, template lockMaker) (lockMaker, string) {
	var byFix, byTmpl []string
	var ops [3]lockMaker
	for i, fn := range []string{"Mutex.TryLock", "Mutex.Unlock", "Mutex.Refresh"} {
		ops[i] = fixed
		for _, f := range shapes(t)[pkg].Findings {
			if f.Func == fn && !f.Fix {
				ops[i] = template
			}
		}
		if name := strings.TrimPrefix(fn, "Mutex."); fmt.Sprintf("%p", ops[i]) == fmt.Sprintf("%p", template) {
			byTmpl = append(byTmpl, name)
		} else {
			byFix = append(byFix, name)
		}
	}
	var parts []string
	if len(byFix) > 0 {
		parts = append(parts, "lockvet's fixed "+strings.Join(byFix, ", "))
	}
	if len(byTmpl) > 0 {
		them := "them"
		if len(byTmpl) == 1 {
			them = "it"
		}
		parts = append(parts, "the rewrite-table template's "+strings.Join(byTmpl, ", ")+" (lockvet reports "+them+" without a fix)")
	}
	return func(key, token string, ttl time.Duration) lockOps {
		return lockOps{ops[0](key, token, ttl).try, ops[1](key, token, ttl).unlock, ops[2](key, token, ttl).refresh}
	}, strings.Join(parts, " with ")
}

func TestProofAdapters(t *testing.T) {
	t.Parallel()
	t.Run("redigo", func(t *testing.T) {
		eachRedis(t, func(t *testing.T, be backend) {
			// 6c: LV105 on redigo.
			const key = "lock:proof6c"
			c := redigoConn(t, be)
			if _, err := c.Do("SET", key, "A", "NX", "PX", longTTL.Milliseconds()); err != nil {
				t.Fatal(err)
			}
			bug := must(bugredigo.TryAcquire(c, key, "B", longTTL))(t)
			fix := must(fixredigo.TryAcquire(c, key, "B", longTTL))(t)
			if !bug || fix {
				t.Errorf("lock held by A: buggy TryAcquire reported %v (want true, the bug), fixed %v (want false)", bug, fix)
			}
			record(t, "6c", be.name,
				"reports the lock taken (true, nil) while A holds it: the caller enters the critical section",
				"reports busy (false, nil)")

			// 5d: LV104 on redigo, a count of milliseconds given to EX.
			var left [2]int64
			for i, acquire := range []func(redigo.Conn, string, string, time.Duration) (bool, error){bugredigo.AcquireFor, fixredigo.AcquireFor} {
				key := fmt.Sprintf("lock:proof5d:%d", i)
				if !must(acquire(c, key, "A", childTTL))(t) {
					t.Fatalf("%s: could not take a free lock", key)
				}
				left[i] = must(redigo.Int64(c.Do("PTTL", key)))(t)
			}
			if left[0] < 1000*childTTL.Milliseconds()-5000 || left[0] > 1000*childTTL.Milliseconds() {
				t.Errorf("5d buggy: PTTL %d ms, want about %d (1000 times the TTL)", left[0], 1000*childTTL.Milliseconds())
			}
			if left[1] < childTTL.Milliseconds()-1000 || left[1] > childTTL.Milliseconds() {
				t.Errorf("5d fixed: PTTL %d ms, want about %d", left[1], childTTL.Milliseconds())
			}
			record(t, "5d", be.name,
				fmt.Sprintf("taking a %s lock sends EX %d: PTTL ≈ %s, so a dead holder blocks everyone 1000 times longer", approx(childTTL), childTTL.Milliseconds(), approx(time.Duration(left[0])*time.Millisecond)),
				fmt.Sprintf("sends PX %d: PTTL ≈ %s", childTTL.Milliseconds(), approx(time.Duration(left[1])*time.Millisecond)))

			s := redisStore(t, be)
			ops, from := lockvetOrTemplate(t, "redigo",
				func(key, token string, ttl time.Duration) lockOps {
					m := &fixredigo.Mutex{Conn: redigoConn(t, be), Key: key, Token: token, TTL: ttl}
					return lockOps{m.TryLock, m.Unlock, m.Refresh}
				},
				func(key, token string, ttl time.Duration) lockOps {
					m := &redigolock.Mutex{Conn: redigoConn(t, be), Key: key, Token: token, TTL: ttl}
					return lockOps{m.TryLock, m.Unlock, m.Refresh}
				})
			clientCase(t, "7f", be.name, s, func(key, token string, ttl time.Duration) lockOps {
				m := &bugredigo.Mutex{Conn: redigoConn(t, be), Key: key, Token: token, TTL: ttl}
				return lockOps{m.TryLock, m.Unlock, m.Refresh}
			}, ops, from)
		})
	})
	t.Run("rueidis", func(t *testing.T) {
		eachRedis(t, func(t *testing.T, be backend) {
			ctx, c := context.Background(), rueidisClient(t, be)
			ops, from := lockvetOrTemplate(t, "rueidis",
				func(key, token string, ttl time.Duration) lockOps {
					m := &fixrueidis.Mutex{Client: c, Key: key, Token: token, TTL: ttl}
					return lockOps{func() (bool, error) { return m.TryLock(ctx) }, func() (bool, error) { return m.Unlock(ctx) }, func() (bool, error) { return m.Refresh(ctx) }}
				},
				func(key, token string, ttl time.Duration) lockOps {
					m := &rueidislock.Mutex{Client: c, Key: key, Token: token, TTL: ttl}
					return lockOps{func() (bool, error) { return m.TryLock(ctx) }, func() (bool, error) { return m.Unlock(ctx) }, func() (bool, error) { return m.Refresh(ctx) }}
				})
			clientCase(t, "7g", be.name, redisStore(t, be), func(key, token string, ttl time.Duration) lockOps {
				m := &bugrueidis.Mutex{Client: c, Key: key, Token: token, TTL: ttl}
				return lockOps{func() (bool, error) { return m.TryLock(ctx) }, func() (bool, error) { return m.Unlock(ctx) }, func() (bool, error) { return m.Refresh(ctx) }}
			}, ops, from)
		})
	})
	t.Run("memcache", func(t *testing.T) {
		t.Run(realMemc, func(t *testing.T) {
			t.Parallel()
			mc, s := memcachedStore(t)
			ops, from := lockvetOrTemplate(t, "memcache",
				func(key, token string, ttl time.Duration) lockOps {
					m := &fixmc.Mutex{MC: mc, Key: key, Token: token, TTL: ttl}
					return lockOps{m.TryLock, m.Unlock, m.Refresh}
				},
				func(key, token string, ttl time.Duration) lockOps {
					m := &mclock.Mutex{MC: mc, Key: key, Token: token, TTL: ttl}
					return lockOps{m.TryLock, m.Unlock, m.Refresh}
				})
			clientCase(t, "7h", realMemc, s, func(key, token string, ttl time.Duration) lockOps {
				m := &bugmc.Mutex{MC: mc, Key: key, Token: token, TTL: ttl}
				return lockOps{m.TryLock, m.Unlock, m.Refresh}
			}, ops, from)
		})
	})
}
