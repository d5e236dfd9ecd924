package proof

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/lockvet/lockvet/internal/redistest"
)

var update = flag.Bool("update", false, "rewrite internal/fixed from lockvet's fixes and docs/proof.md from this run")

// staleFixed is set when -update rewrote a fixed package: the scenarios
// of this run exercised the old one, compiled into the test binary.
var staleFixed bool

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(child())
	}
	flag.Parse()
	code := m.Run()
	if staleFixed {
		fmt.Fprintln(os.Stderr, "proof: -update rewrote packages under internal/fixed; run go test ./proof -update again to exercise them and write docs/proof.md")
		code = 1
	}
	if code == 0 {
		if err := checkDoc(recorded(), shapesRes, *update, redistest.Required()); err != nil {
			fmt.Fprintln(os.Stderr, "proof:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// --- backends ---

const (
	realRedis = "redis-server"
	miniRedis = "miniredis"
	realMemc  = "memcached"
)

// backend is a Redis server a scenario runs against.
type backend struct {
	name string
	addr string
}

// eachRedis runs f against a real redis-server (skipped with a message
// saying how to enable it when none is installed, a failure in CI) and
// against miniredis, whose TTLs follow the wall clock like a real
// server's. Each gets a fresh server.
func eachRedis(t *testing.T, f func(t *testing.T, b backend)) {
	t.Run(realRedis, func(t *testing.T) {
		t.Parallel()
		s := redistest.Redis(t)
		f(t, backend{realRedis, s.Addr})
	})
	t.Run(miniRedis, func(t *testing.T) {
		t.Parallel()
		m := miniredis.RunT(t)
		m.ClockTTL(true)
		f(t, backend{miniRedis, m.Addr()})
	})
}

// v9 returns a go-redis v9 client of b, closed when the test ends.
func (b backend) v9(t testing.TB, hooks ...redis.Hook) *redis.Client {
	rdb := newV9(b.addr)
	for _, h := range hooks {
		rdb.AddHook(h)
	}
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func newV9(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, Protocol: 2, DisableIdentity: true, MaxRetries: -1})
}

// pttl is the key's remaining TTL in milliseconds: -1 none, -2 no key.
func pttl(t testing.TB, rdb *redis.Client, key string) int64 {
	t.Helper()
	d, err := rdb.PTTL(context.Background(), key).Result()
	if err != nil {
		t.Fatalf("PTTL %s: %v", key, err)
	}
	if d < 0 {
		return int64(d) // -1ns, -2ns are returned raw
	}
	return d.Milliseconds()
}

func get(t testing.TB, rdb *redis.Client, key string) string {
	t.Helper()
	v, err := rdb.Get(context.Background(), key).Result()
	if err == redis.Nil {
		return "(no key)"
	}
	if err != nil {
		t.Fatalf("GET %s: %v", key, err)
	}
	return v
}

// must(f())(t) is f's value, failing the test when f returned an error.
func must[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// hook runs before (and after) every command that names key, in every
// client it is added to; in pipelines too.
type hook struct {
	key           string
	before, after func(ctx context.Context, cmd redis.Cmder)
}

func (h hook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h hook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		mine := names(cmd, h.key)
		if mine && h.before != nil {
			h.before(ctx, cmd)
		}
		err := next(ctx, cmd)
		if mine && h.after != nil {
			h.after(ctx, cmd)
		}
		return err
	}
}

func (h hook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, c := range cmds {
			if names(c, h.key) && h.before != nil {
				h.before(ctx, c)
			}
		}
		err := next(ctx, cmds)
		for _, c := range cmds {
			if names(c, h.key) && h.after != nil {
				h.after(ctx, c)
			}
		}
		return err
	}
}

// names reports whether the command's arguments include key.
func names(cmd redis.Cmder, key string) bool {
	for _, a := range cmd.Args()[1:] {
		if s, ok := a.(string); ok && s == key {
			return true
		}
	}
	return false
}

// deletes reports whether cmd is a command that deletes a key: DEL,
// UNLINK, or a script (the fixed releases).
func deletes(cmd redis.Cmder) bool {
	switch cmd.Name() {
	case "del", "unlink", "eval", "evalsha":
		return true
	}
	return false
}

// --- results, for docs/proof.md ---

// outcome is what one case did on one backend: what the buggy code did
// and what lockvet's fixed code did, in words built from the assertions
// the test made (so the text is the same on every passing run).
type outcome struct{ buggy, fixed string }

var results = struct {
	sync.Mutex
	m map[string]map[string]outcome // case ID → backend → outcome
}{m: map[string]map[string]outcome{}}

// record notes the outcome of case id on b, unless the test failed.
func record(t *testing.T, id, b, buggy, fixed string) {
	t.Helper()
	if caseByID(id) == nil {
		t.Fatalf("record: unknown case %q", id)
	}
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		results.Lock()
		defer results.Unlock()
		if results.m[id] == nil {
			results.m[id] = map[string]outcome{}
		}
		results.m[id][b] = outcome{buggy, fixed}
	})
}

// serverVersion is the first line of `bin --version`/`-V`, or "".
func serverVersion(bin, flag string) string {
	out, err := exec.Command(bin, flag).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

// approx renders d in the largest of h, m, s, ms that it is a whole
// number of, within 1%: 1h, 5m, 30s, 50ms.
func approx(d time.Duration) string {
	units := []struct {
		u    time.Duration
		name string
	}{{time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}, {time.Millisecond, "ms"}}
	for _, u := range units {
		r := d.Round(u.u)
		if r >= u.u && (r-d).Abs() <= d/100 {
			return fmt.Sprintf("%d%s", r/u.u, u.name)
		}
	}
	return d.String()
}

// sleepUntil sleeps until the deadline.
func sleepUntil(d time.Time) { time.Sleep(time.Until(d)) }
