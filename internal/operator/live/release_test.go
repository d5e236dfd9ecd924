package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/internal/redistest"
)

// The release tests run lockvet release in the test process (Release, as
// lockvet-live's main calls it) against a real redis-server and against miniredis,
// the embedded stand-in that keeps them running where no server is
// installed. The ACL and cluster tests need the real server.

// backend is a server a release test runs against.
type backend struct {
	name string
	addr string
}

// eachBackend runs f against a real redis-server (skipped with a message
// when none is installed, a failure in CI) and miniredis.
func eachBackend(t *testing.T, f func(t *testing.T, b backend)) {
	t.Run("redis-server", func(t *testing.T) {
		f(t, backend{"redis-server", redistest.Redis(t).Addr})
	})
	t.Run("miniredis", func(t *testing.T) {
		m := miniredis.RunT(t)
		m.ClockTTL(true)
		f(t, backend{"miniredis", m.Addr()})
	})
}

func (b backend) client(t *testing.T) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: b.addr, Protocol: 2, DisableIdentity: true})
	t.Cleanup(func() { c.Close() })
	return c
}

// release runs lockvet release with args.
func release(args ...string) clitest.RunResult {
	var stdout, stderr bytes.Buffer
	code := Release(context.Background(), args, &stdout, &stderr)
	return clitest.RunResult{Stdout: stdout.String(), Stderr: stderr.String(), Code: code}
}

// records parses the JSON audit records of stdout.
func records(t *testing.T, stdout string) []auditRecord {
	t.Helper()
	var out []auditRecord
	for line := range strings.Lines(stdout) {
		var r auditRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("stdout line %q is not an audit record: %v", line, err)
		}
		out = append(out, r)
	}
	return out
}

// streamRecords reads the audit stream.
func streamRecords(t *testing.T, c redis.Cmdable, stream string) []map[string]any {
	t.Helper()
	msgs, err := c.XRange(context.Background(), stream, "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, m := range msgs {
		m.Values["id"] = m.ID
		out = append(out, m.Values)
	}
	return out
}

// noReleaseEnv clears the connection environment for the test.
func noReleaseEnv(t *testing.T) {
	for _, env := range []string{"LOCKVET_REDIS_USER", "LOCKVET_REDIS_PASSWORD", "REDISCLI_AUTH", "SUDO_USER"} {
		t.Setenv(env, "")
	}
}

// TestReleaseShow: without -token, release shows the key and changes
// nothing; a missing reason, a missing key, a key that is not a string and
// bad flags are clear errors.
func TestReleaseShow(t *testing.T) {
	noReleaseEnv(t)
	eachBackend(t, func(t *testing.T, b backend) {
		c := b.client(t)
		ctx := context.Background()
		c.Set(ctx, "lock:job:report", "worker-7", 0)
		c.Set(ctx, "lock:order:42", "it's 42", 30*time.Second)
		c.HSet(ctx, "lock:billing:stats", "runs", 3)
		before := keyspace(t, c)

		r := release("-redis", b.addr, "-key", "lock:job:report")
		r.WantCode(t, driver.ExitError)
		if !strings.Contains(r.Stderr, "-reason TEXT is required") {
			t.Errorf("no reason: stderr %q", r.Stderr)
		}
		r = release("-redis", b.addr, "-key", "lock:job:report", "-token", "worker-7", "-reason", "  ")
		r.WantCode(t, driver.ExitError)

		r = release("-redis", b.addr, "-key", "lock:job:report", "-reason", "stuck since the deploy")
		r.WantCode(t, driver.ExitClean)
		if !strings.Contains(r.Stdout, `lock:job:report  value "worker-7"  TTL none (never expires)  idle `) ||
			!strings.Contains(r.Stdout, "lockvet release -redis "+b.addr+" -key lock:job:report -token worker-7 -reason 'stuck since the deploy'\n") {
			t.Errorf("show:\n%s", r.Stdout)
		}
		r = release("-redis", b.addr, "-key", "lock:order:42", "-reason", "x")
		r.WantCode(t, driver.ExitClean)
		if !strings.Contains(r.Stdout, `value "it's 42"  TTL `) || !strings.Contains(r.Stdout, `-token 'it'\''s 42'`) {
			t.Errorf("show a value with a quote:\n%s", r.Stdout)
		}

		r = release("-redis", b.addr, "-key", "lock:none", "-reason", "x")
		r.WantCode(t, driver.ExitFindings)
		if !strings.Contains(r.Stderr, "lock:none does not exist") {
			t.Errorf("missing key: stderr %q", r.Stderr)
		}
		r = release("-redis", b.addr, "-key", "lock:billing:stats", "-reason", "x")
		r.WantCode(t, driver.ExitError)
		if !strings.Contains(r.Stderr, "lock:billing:stats is a hash, not a string") {
			t.Errorf("a hash: stderr %q", r.Stderr)
		}
		r = release("-redis", b.addr, "-key", "lock:billing:stats", "-token", "3", "-reason", "x")
		r.WantCode(t, driver.ExitError)

		for _, args := range [][]string{
			{"-key", "k", "-reason", "x"}, // no -redis
			{"-redis", b.addr, "-reason", "x"},
			{"-redis", b.addr, "-key", "k", "-pattern", "lock:*", "-reason", "x"},
			{"-redis", b.addr, "-pattern", "lock:*", "-token", "t", "-reason", "x"},
			{"-redis", b.addr, "-key", "k", "-yes", "-reason", "x"},
			{"-redis", b.addr, "-key", "k", "-token", "", "-reason", "x"},
			{"-redis", b.addr, "-pattern", "*", "-yes", "-reason", "x"},
			{"-redis", b.addr, "-pattern", "lock:*", "-max-keys", "0", "-reason", "x"},
			{"-redis", b.addr, "-key", "k", "-reason", "x", "./..."},
		} {
			if r := release(args...); r.Code != driver.ExitError || r.Stderr == "" {
				t.Errorf("release %q: exit %d, stderr %q; want 2 and a message", args, r.Code, r.Stderr)
			}
		}
		if after := keyspace(t, c); !mapsEqual(before, after) {
			t.Errorf("showing changed the data:\nbefore %v\nafter  %v", before, after)
		}
		if n := c.Exists(ctx, "lockvet:audit").Val(); n != 0 {
			t.Errorf("showing wrote the audit stream")
		}
	})
}

// TestReleaseToken: -token deletes the key only while it holds that
// value, and records the release on stdout and in the stream.
func TestReleaseToken(t *testing.T) {
	noReleaseEnv(t)
	eachBackend(t, func(t *testing.T, b backend) {
		c := b.client(t)
		ctx := context.Background()
		c.Set(ctx, "lock:job:report", "worker-7", 0)
		c.Set(ctx, "lock:order:42", "tok-42", 30*time.Second)

		// A wrong token: nothing deleted, nothing recorded.
		r := release("-redis", b.addr, "-key", "lock:job:report", "-token", "worker-8", "-reason", "x")
		r.WantCode(t, driver.ExitFindings)
		if r.Stdout != "" || !strings.Contains(r.Stderr, `lock:job:report now holds "worker-7", not "worker-8"`) || !strings.Contains(r.Stderr, "nothing deleted") {
			t.Errorf("wrong token: stdout %q stderr %q", r.Stdout, r.Stderr)
		}
		if c.Get(ctx, "lock:job:report").Val() != "worker-7" || c.Exists(ctx, "lockvet:audit").Val() != 0 {
			t.Fatal("a wrong token deleted the key or wrote a record")
		}

		// The right token: deleted and recorded, with its TTL (none).
		t.Setenv("SUDO_USER", "alice")
		r = release("-redis", b.addr, "-key", "lock:job:report", "-token", "worker-7", "-reason", "stuck since the 02:10 deploy, INC-4471")
		r.WantCode(t, driver.ExitClean)
		recs := records(t, r.Stdout)
		if len(recs) != 1 {
			t.Fatalf("records %+v", recs)
		}
		rec := recs[0]
		if rec.Key != "lock:job:report" || rec.Value != "worker-7" || rec.Operator != "alice" || rec.Reason != "stuck since the 02:10 deploy, INC-4471" ||
			rec.TTLMillis != -1 || rec.Idle < 0 || rec.Redis != b.addr || rec.Stream != "lockvet:audit" || rec.StreamID == "" || rec.Time == "" {
			t.Errorf("record %+v", rec)
		}
		if _, err := time.Parse(time.RFC3339Nano, rec.Time); err != nil {
			t.Errorf("time: %v", err)
		}
		if c.Exists(ctx, "lock:job:report").Val() != 0 {
			t.Error("the key is still there")
		}
		st := streamRecords(t, c, "lockvet:audit")
		want := map[string]any{"id": rec.StreamID, "time": rec.Time, "operator": "alice", "host": rec.Host, "reason": rec.Reason,
			"redis": b.addr, "key": "lock:job:report", "value": "worker-7", "ttl_ms": "-1", "idle_s": fmt.Sprint(rec.Idle)}
		if len(st) != 1 || fmt.Sprint(st[0]) != fmt.Sprint(want) {
			t.Errorf("stream %v, want [%v]", st, want)
		}

		// -operator wins; a TTL is recorded; -audit-stream "" writes only stdout.
		r = release("-redis", b.addr, "-key", "lock:order:42", "-token", "tok-42", "-reason", "x", "-operator", "bob", "-audit-stream", "")
		r.WantCode(t, driver.ExitClean)
		rec = records(t, r.Stdout)[0]
		if rec.Operator != "bob" || rec.TTLMillis <= 0 || rec.TTLMillis > 30000 || rec.Stream != "" || rec.StreamID != "" {
			t.Errorf("record %+v", rec)
		}
		if n := len(streamRecords(t, c, "lockvet:audit")); n != 1 {
			t.Errorf("-audit-stream \"\" wrote the stream: %d records", n)
		}

		// Released twice: the second finds nothing.
		r = release("-redis", b.addr, "-key", "lock:order:42", "-token", "tok-42", "-reason", "x")
		r.WantCode(t, driver.ExitFindings)
		if !strings.Contains(r.Stderr, "lock:order:42 no longer exists") {
			t.Errorf("released twice: stderr %q", r.Stderr)
		}

		// An audit stream key that is not a stream: nothing deleted.
		c.Set(ctx, "lock:kept", "tok", 0)
		c.Set(ctx, "audit:string", "x", 0)
		r = release("-redis", b.addr, "-key", "lock:kept", "-token", "tok", "-reason", "x", "-audit-stream", "audit:string")
		r.WantCode(t, driver.ExitError)
		if r.Stdout != "" || !strings.Contains(r.Stderr, "the audit stream audit:string is not a stream") || c.Get(ctx, "lock:kept").Val() != "tok" {
			t.Errorf("a string as the stream: stdout %q stderr %q", r.Stdout, r.Stderr)
		}

		// A key that expired before the release.
		c.Set(ctx, "lock:short", "tok", 50*time.Millisecond)
		for c.Exists(ctx, "lock:short").Val() != 0 {
			time.Sleep(10 * time.Millisecond)
		}
		r = release("-redis", b.addr, "-key", "lock:short", "-token", "tok", "-reason", "x")
		r.WantCode(t, driver.ExitFindings)
		if !strings.Contains(r.Stderr, "lock:short no longer exists (released or expired since it was read): nothing deleted") {
			t.Errorf("expired: stderr %q", r.Stderr)
		}

		// A value that is not UTF-8 is recorded in hex as well.
		c.Set(ctx, "lock:bin", "\xff\x00tok", 0)
		r = release("-redis", b.addr, "-key", "lock:bin", "-reason", "x")
		r.WantCode(t, driver.ExitClean)
		if !strings.Contains(r.Stdout, `-pattern lock:bin -yes`) {
			t.Errorf("show a binary value:\n%s", r.Stdout)
		}
		r = release("-redis", b.addr, "-key", "lock:bin", "-token", "\xff\x00tok", "-reason", "x")
		r.WantCode(t, driver.ExitClean)
		if rec := records(t, r.Stdout)[0]; rec.ValueHex != "ff00746f6b" {
			t.Errorf("value_hex %q", rec.ValueHex)
		}
		if len(streamRecords(t, c, "lockvet:audit")) != 2 {
			t.Error("the stream does not hold two records")
		}

		// The idle time recorded is the key's, not the time since
		// lockvet's own read of the value (the real server keeps idle
		// times; RESTORE plants one).
		if b.name != "redis-server" {
			return
		}
		idleKey := func(key, value string) {
			c.Set(ctx, "tmp", value, 0)
			dump := c.Dump(ctx, "tmp").Val()
			c.Del(ctx, "tmp")
			if err := c.Do(ctx, "RESTORE", key, 0, dump, "IDLETIME", 3600).Err(); err != nil {
				t.Fatal(err)
			}
		}
		idleKey("lock:idle:1", "a")
		idleKey("lock:idle:2", "b")
		r = release("-redis", b.addr, "-key", "lock:idle:1", "-token", "a", "-reason", "x")
		r.WantCode(t, driver.ExitClean)
		if rec := records(t, r.Stdout)[0]; rec.Idle < 3600 {
			t.Errorf("-token: idle_s %d, want at least 3600", rec.Idle)
		}
		r = release("-redis", b.addr, "-pattern", "lock:idle:*", "-yes", "-reason", "x")
		r.WantCode(t, driver.ExitClean)
		if rec := records(t, r.Stdout)[0]; rec.Key != "lock:idle:2" || rec.Idle < 3600 {
			t.Errorf("-pattern -yes: %+v, want idle_s at least 3600", rec)
		}
	})
}

// TestReleaseRetaken: the operator is shown a lock, its holder releases it
// and takes it again (a new token) before the operator's release: the new
// holder keeps its lock.
func TestReleaseRetaken(t *testing.T) {
	noReleaseEnv(t)
	eachBackend(t, func(t *testing.T, b backend) {
		c := b.client(t)
		ctx := context.Background()
		c.Set(ctx, "lock:job:report", "run-1", time.Minute)
		r := release("-redis", b.addr, "-key", "lock:job:report", "-reason", "x")
		r.WantCode(t, driver.ExitClean)
		if !strings.Contains(r.Stdout, "-token run-1 ") {
			t.Fatalf("show:\n%s", r.Stdout)
		}
		if n, err := redis.NewScript(lua.UnlockSrc).Run(ctx, c, []string{"lock:job:report"}, "run-1").Int(); n != 1 || err != nil {
			t.Fatalf("the holder's release: %d %v", n, err)
		}
		if !c.SetNX(ctx, "lock:job:report", "run-2", time.Minute).Val() {
			t.Fatal("the holder could not take the lock again")
		}
		r = release("-redis", b.addr, "-key", "lock:job:report", "-token", "run-1", "-reason", "x")
		r.WantCode(t, driver.ExitFindings)
		if v := c.Get(ctx, "lock:job:report").Val(); v != "run-2" {
			t.Errorf("the new holder's lock: %q", v)
		}
		if c.Exists(ctx, "lockvet:audit").Val() != 0 {
			t.Error("a release that did not happen was recorded")
		}
	})
}

// TestReleaseRace: a holder takes, holds and releases a lock in a loop,
// each time with a new token, while an operator reads the lock and
// releases the token read. Whatever the interleaving, the holder loses a
// lock only when the operator released exactly that token, every release
// is in the stream, and nothing else is. Run it a hundred times with
// go test -run TestReleaseRace -count 100 ./cmd/lockvet.
func TestReleaseRace(t *testing.T) {
	noReleaseEnv(t)
	eachBackend(t, func(t *testing.T, b backend) {
		const key = "lock:race"
		ctx := context.Background()
		c := b.client(t)
		holder := b.client(t)
		unlock := redis.NewScript(lua.UnlockSrc)

		var mu sync.Mutex
		lost := map[string]bool{} // tokens whose holder found its lock gone
		stop := make(chan struct{})
		holderErr := make(chan error, 1)
		go func() {
			defer close(holderErr)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				tok := fmt.Sprintf("holder-%d", i)
				ok, err := holder.SetNX(ctx, key, tok, 10*time.Second).Result()
				if err != nil || !ok {
					holderErr <- fmt.Errorf("acquire %s: %v %v (the key was left behind)", tok, ok, err)
					return
				}
				time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond)
				n, err := unlock.Run(ctx, holder, []string{key}, tok).Int()
				if err != nil {
					holderErr <- err
					return
				}
				if n == 0 {
					mu.Lock()
					lost[tok] = true
					mu.Unlock()
				}
			}
		}()

		released := map[string]bool{}
		refused := 0
		for attempts := 0; len(released) < 20 || refused < 20; attempts++ {
			if attempts == 1000 {
				close(stop)
				t.Fatalf("after %d releases tried, %d done and %d refused: the race is not exercised", attempts, len(released), refused)
			}
			var v string
			for {
				var err error
				if v, err = c.Get(ctx, key).Result(); err == nil {
					break
				} else if err != redis.Nil {
					t.Fatal(err)
				}
				select {
				case err := <-holderErr:
					t.Fatalf("the holder stopped: %v", err)
				default:
				}
			}
			r := release("-redis", b.addr, "-key", key, "-token", v, "-reason", "race", "-operator", "test")
			switch r.Code {
			case driver.ExitClean:
				if rec := records(t, r.Stdout); len(rec) != 1 || rec[0].Value != v {
					t.Fatalf("released %q, recorded %+v", v, rec)
				}
				released[v] = true
			case driver.ExitFindings:
				refused++
			default:
				close(stop)
				t.Fatalf("exit %d: %s", r.Code, r.Stderr)
			}
		}
		close(stop)
		if err := <-holderErr; err != nil {
			t.Fatal(err)
		}
		t.Logf("%d releases, %d refused (the lock had changed hands)", len(released), refused)
		mu.Lock()
		defer mu.Unlock()
		if !mapKeysEqual(lost, released) {
			t.Errorf("the holder lost the locks %v; the operator released %v", keysOf(lost), keysOf(released))
		}
		var streamed []string
		for _, m := range streamRecords(t, c, "lockvet:audit") {
			streamed = append(streamed, m["value"].(string))
		}
		slices.Sort(streamed)
		if want := keysOf(released); !slices.Equal(streamed, want) {
			t.Errorf("stream records %q, releases %q", streamed, want)
		}
	})
}

func mapKeysEqual(a, b map[string]bool) bool {
	return slices.Equal(keysOf(a), keysOf(b))
}

func keysOf(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestReleasePattern: -pattern lists the locks of a business key; -yes
// releases each while it holds the value read; more than -max-keys keys
// is refused.
func TestReleasePattern(t *testing.T) {
	noReleaseEnv(t)
	eachBackend(t, func(t *testing.T, b backend) {
		c := b.client(t)
		ctx := context.Background()
		for i := range 3 {
			c.Set(ctx, fmt.Sprintf("lock:customer:9:order:%d", i), fmt.Sprintf("tok-%d", i), time.Minute)
		}
		c.HSet(ctx, "lock:customer:9:stats", "n", 1)
		c.Set(ctx, "lock:customer:10:order:1", "other", time.Minute)
		before := keyspace(t, c)

		r := release("-redis", b.addr, "-pattern", "lock:customer:9:*", "-reason", "customer 9 migrated")
		r.WantCode(t, driver.ExitClean)
		if got := strings.Count(r.Stdout, "\n"); got != 3 || !strings.Contains(r.Stdout, `lock:customer:9:order:1  value "tok-1"  TTL `) ||
			!strings.Contains(r.Stderr, "3 lock key(s) match lock:customer:9:*; nothing released: add -yes") ||
			!strings.Contains(r.Stderr, "lock:customer:9:stats is a hash, not a lock: left alone") {
			t.Errorf("list: stdout\n%s\nstderr\n%s", r.Stdout, r.Stderr)
		}
		r = release("-redis", b.addr, "-pattern", "lock:customer:9:*", "-reason", "x", "-yes", "-max-keys", "3")
		r.WantCode(t, driver.ExitError)
		if !strings.Contains(r.Stderr, "more than -max-keys 3 keys match") {
			t.Errorf("-max-keys: %q", r.Stderr)
		}
		if after := keyspace(t, c); !mapsEqual(before, after) {
			t.Fatalf("listing changed the data:\nbefore %v\nafter  %v", before, after)
		}

		r = release("-redis", b.addr, "-pattern", "lock:customer:9:*", "-reason", "customer 9 migrated", "-yes", "-operator", "carol")
		r.WantCode(t, driver.ExitClean)
		recs := records(t, r.Stdout)
		var got []string
		for _, rec := range recs {
			got = append(got, rec.Key+"="+rec.Value)
		}
		if want := []string{"lock:customer:9:order:0=tok-0", "lock:customer:9:order:1=tok-1", "lock:customer:9:order:2=tok-2"}; !slices.Equal(got, want) {
			t.Errorf("released %q, want %q", got, want)
		}
		if !strings.Contains(r.Stderr, "released 3 of 3 lock key(s) matching lock:customer:9:*") {
			t.Errorf("stderr %q", r.Stderr)
		}
		left, _ := c.Keys(ctx, "lock:*").Result()
		slices.Sort(left)
		if want := []string{"lock:customer:10:order:1", "lock:customer:9:stats"}; !slices.Equal(left, want) {
			t.Errorf("keys left %q, want %q", left, want)
		}
		if n := len(streamRecords(t, c, "lockvet:audit")); n != 3 {
			t.Errorf("%d stream records, want 3", n)
		}

		r = release("-redis", b.addr, "-pattern", "lock:customer:11:*", "-reason", "x", "-yes")
		r.WantCode(t, driver.ExitClean)
		if !strings.Contains(r.Stderr, "no key matches lock:customer:11:*") {
			t.Errorf("no match: %q", r.Stderr)
		}
	})
}

// TestReleaseScript: lockvet's own checks see the release script as an
// owner-checked compare-and-delete of its first argument.
func TestReleaseScript(t *testing.T) {
	if got := lua.Classify(releaseSrc); got.Kind != lua.CompareAndDelete || got.TokenArg != 1 {
		t.Errorf("the release script classifies as %+v", got)
	}
}

// releaseACL returns the ACL SETUSER line of the release user in
// docs/live.md, with a test password; a selector in parentheses is one
// argument.
func releaseACL(t *testing.T) []any {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(clitest.Root(), "docs", "live.md"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(doc)) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "ACL SETUSER lockvet-release ")
		if !ok {
			continue
		}
		args := []any{"ACL", "SETUSER", "lockvet-release"}
		var sel []string
		for _, f := range strings.Fields(rest) {
			switch {
			case strings.HasPrefix(f, ">"):
				args = append(args, ">test-password")
			case strings.HasPrefix(f, "(") || sel != nil:
				sel = append(sel, f)
				if strings.HasSuffix(f, ")") {
					args = append(args, strings.Join(sel, " "))
					sel = nil
				}
			default:
				args = append(args, f)
			}
		}
		return args
	}
	t.Fatal("docs/live.md has no line starting with ACL SETUSER lockvet-release")
	return nil
}

// TestReleaseACL: the release user of docs/live.md can show, release and
// record, and nothing else; users that lack a permission, a wrong password
// and an unreachable server are clear errors that delete and record
// nothing.
func TestReleaseACL(t *testing.T) {
	noReleaseEnv(t)
	s := redistest.Redis(t)
	ctx := context.Background()
	admin := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer admin.Close()
	admin.Set(ctx, "lock:job:report", "worker-7", 0)
	admin.Set(ctx, "lock:order:1", "a", time.Minute)
	admin.Set(ctx, "lock:order:2", "b", time.Minute)
	admin.Set(ctx, "cache:order:1", "summary", 0)
	if err := admin.Do(ctx, releaseACL(t)...).Err(); err != nil {
		t.Fatalf("the ACL line of docs/live.md: %v", err)
	}

	user := redis.NewClient(&redis.Options{Addr: s.Addr, Username: "lockvet-release", Password: "test-password", Protocol: 2})
	defer user.Close()
	for _, cmd := range [][]any{
		{"SET", "lock:x", "1"},
		{"GET", "cache:order:1"},
		{"DEL", "cache:order:1"},
		{"XADD", "lock:x", "*", "f", "v"},
		{"XRANGE", "lockvet:audit", "-", "+"},
		{"DEL", "lockvet:audit"},
		{"XTRIM", "lockvet:audit", "MAXLEN", "0"},
		{"EVAL", "return redis.call('DEL', KEYS[1])", "1", "cache:order:1"},
		{"EVAL", "return redis.call('DEL', KEYS[1])", "1", "lockvet:audit"},
		{"FLUSHALL"},
		{"CONFIG", "GET", "*"},
	} {
		if err := user.Do(ctx, cmd...).Err(); err == nil || !strings.Contains(err.Error(), "NOPERM") && !strings.Contains(err.Error(), "can't access") {
			t.Errorf("the release user may run %q: %v", cmd, err)
		}
	}

	t.Setenv("LOCKVET_REDIS_USER", "lockvet-release")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "test-password")
	r := release("-redis", s.Addr, "-key", "lock:job:report", "-reason", "x")
	r.WantCode(t, driver.ExitClean)
	r = release("-redis", s.Addr, "-key", "lock:job:report", "-token", "worker-7", "-reason", "x", "-operator", "alice")
	r.WantCode(t, driver.ExitClean)
	r = release("-redis", s.Addr, "-pattern", "lock:order:*", "-reason", "x", "-yes", "-operator", "alice")
	r.WantCode(t, driver.ExitClean)
	if n := len(streamRecords(t, admin, "lockvet:audit")); n != 3 {
		t.Errorf("%d audit records, want 3", n)
	}

	// Users that lack one permission: the script checks before it writes.
	admin.Set(ctx, "lock:job:report", "worker-8", 0)
	for user, acl := range map[string][]any{
		"no-xadd": {"on", ">pw", "~lock:*", "-@all", "+ping", "+info", "+get", "+type", "+pttl", "+object|idletime", "+del", "+eval", "+evalsha"},
		"no-del":  {"on", ">pw", "~*", "-@all", "+ping", "+info", "+get", "+type", "+pttl", "+object|idletime", "+xadd", "+eval", "+evalsha"},
		"no-eval": {"on", ">pw", "~*", "-@all", "+ping", "+info", "+get", "+type", "+pttl", "+object|idletime", "+xadd", "+del"},
	} {
		if err := admin.Do(ctx, append([]any{"ACL", "SETUSER", user}, acl...)...).Err(); err != nil {
			t.Fatal(err)
		}
		t.Setenv("LOCKVET_REDIS_USER", user)
		t.Setenv("LOCKVET_REDIS_PASSWORD", "pw")
		r := release("-redis", s.Addr, "-key", "lock:job:report", "-token", "worker-8", "-reason", "x")
		r.WantCode(t, driver.ExitError)
		if !strings.Contains(r.Stderr, "lacks a permission release needs") || !strings.Contains(r.Stderr, "docs/live.md lists the release user's ACL") {
			t.Errorf("%s: stderr %q", user, r.Stderr)
		}
		if v := admin.Get(ctx, "lock:job:report").Val(); v != "worker-8" {
			t.Fatalf("%s: the key holds %q", user, v)
		}
		if n := len(streamRecords(t, admin, "lockvet:audit")); n != 3 {
			t.Fatalf("%s: %d audit records, want 3", user, n)
		}
	}

	t.Setenv("LOCKVET_REDIS_USER", "lockvet-release")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "wrong")
	r = release("-redis", s.Addr, "-key", "lock:job:report", "-token", "worker-8", "-reason", "x")
	r.WantCode(t, driver.ExitError)
	if !strings.Contains(r.Stderr, `authentication to `+s.Addr+` failed for user "lockvet-release"`) {
		t.Errorf("wrong password: %q", r.Stderr)
	}

	t.Setenv("LOCKVET_REDIS_USER", "")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "")
	addr := fmt.Sprintf("127.0.0.1:%d", redistest.FreePort(t))
	r = release("-redis", addr, "-key", "lock:job:report", "-token", "worker-8", "-reason", "x", "-timeout", "5s")
	r.WantCode(t, driver.ExitError)
	if !strings.Contains(r.Stderr, "cannot reach Redis at "+addr) {
		t.Errorf("unreachable: %q", r.Stderr)
	}
	if v := admin.Get(ctx, "lock:job:report").Val(); v != "worker-8" {
		t.Errorf("the key holds %q", v)
	}
}

// TestReleaseCluster: on a cluster of three masters, as the release user,
// a key on any master is shown and released, -pattern finds the keys of
// every master, and every release is recorded in the one stream.
func TestReleaseCluster(t *testing.T) {
	noReleaseEnv(t)
	nodes := redistest.Cluster(t, 3)
	ctx := context.Background()
	var addrs []string
	for _, n := range nodes {
		addrs = append(addrs, n.Addr)
		if _, err := redistest.Do(n.Addr, stringArgs(releaseACL(t))...); err != nil {
			t.Fatal(err)
		}
	}
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer cc.Close()
	perNode := map[string]int{}
	for i := range 12 {
		k := fmt.Sprintf("lock:c:%d", i)
		if err := cc.Set(ctx, k, fmt.Sprintf("tok-%d", i), 0).Err(); err != nil {
			t.Fatal(err)
		}
		n, err := cc.MasterForKey(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		perNode[n.Options().Addr]++
	}
	if len(perNode) != 3 {
		t.Fatalf("the keys are on %d masters, want 3: %v", len(perNode), perNode)
	}
	t.Setenv("LOCKVET_REDIS_USER", "lockvet-release")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "test-password")

	// One key, through a node that does not hold it.
	var key string
	for i := range 12 {
		k := fmt.Sprintf("lock:c:%d", i)
		if n, _ := cc.MasterForKey(ctx, k); n.Options().Addr != nodes[0].Addr {
			key = k
			break
		}
	}
	r := release("-redis", nodes[0].Addr, "-key", key, "-reason", "x")
	r.WantCode(t, driver.ExitClean)
	tok := strings.TrimPrefix(key, "lock:c:")
	if !strings.Contains(r.Stdout, `value "tok-`+tok+`"`) {
		t.Errorf("show:\n%s\n%s", r.Stdout, r.Stderr)
	}
	r = release("-redis", nodes[0].Addr, "-key", key, "-token", "wrong", "-reason", "x")
	r.WantCode(t, driver.ExitFindings)
	r = release("-redis", nodes[0].Addr, "-key", key, "-token", "tok-"+tok, "-reason", "x")
	r.WantCode(t, driver.ExitClean)
	if cc.Exists(ctx, key).Val() != 0 {
		t.Errorf("%s is still there", key)
	}

	other, otherTok := "lock:c:11", "tok-11"
	if key == other {
		other, otherTok = "lock:c:10", "tok-10"
	}
	// A user that may not add to the stream releases nothing; a stream
	// key of the wrong type is found only after the delete, on another
	// master: the release is reported, with its record on stdout.
	for _, n := range nodes {
		if _, err := redistest.Do(n.Addr, "ACL", "SETUSER", "no-xadd", "on", ">pw", "~lock:*", "-@all", "+ping", "+info", "+cluster|nodes",
			"+cluster|slots", "+get", "+type", "+pttl", "+object|idletime", "+del", "+eval", "+evalsha"); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("LOCKVET_REDIS_USER", "no-xadd")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "pw")
	r = release("-redis", nodes[0].Addr, "-key", other, "-token", otherTok, "-reason", "x")
	r.WantCode(t, driver.ExitError)
	if !strings.Contains(r.Stderr, "lacks a permission release needs") || cc.Exists(ctx, other).Val() != 1 {
		t.Errorf("no XADD: %q", r.Stderr)
	}
	t.Setenv("LOCKVET_REDIS_USER", "")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "")
	stream := "audit:string"
	for i := 0; ; i++ { // a stream key on another master than the lock
		stream = fmt.Sprintf("audit:%d", i)
		a, _ := cc.MasterForKey(ctx, stream)
		b, _ := cc.MasterForKey(ctx, other)
		if a.Options().Addr != b.Options().Addr {
			break
		}
	}
	cc.Set(ctx, stream, "not a stream", 0)
	r = release("-redis", nodes[0].Addr, "-key", other, "-token", otherTok, "-reason", "x", "-audit-stream", stream)
	r.WantCode(t, driver.ExitError)
	if recs := records(t, r.Stdout); len(recs) != 1 || recs[0].Key != other || recs[0].StreamID != "" ||
		!strings.Contains(r.Stderr, other+" was released, but its audit record could not be added to "+stream) || cc.Exists(ctx, other).Val() != 0 {
		t.Errorf("a string as the stream: stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	cc.Del(ctx, stream)
	t.Setenv("LOCKVET_REDIS_USER", "lockvet-release")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "test-password")

	r = release("-redis", nodes[1].Addr, "-pattern", "lock:c:*", "-reason", "x", "-yes")
	r.WantCode(t, driver.ExitClean)
	if n := len(records(t, r.Stdout)); n != 10 {
		t.Errorf("%d released, want 11\n%s", n, r.Stderr)
	}
	if n := cc.DBSize(ctx).Val(); n != 1 { // the stream
		t.Errorf("%d keys left, want only the audit stream", n)
	}
	st := streamRecords(t, cc, "lockvet:audit")
	if len(st) != 11 {
		t.Errorf("%d audit records, want 11", len(st))
	}
}

func stringArgs(args []any) []string {
	var out []string
	for _, a := range args {
		out = append(out, fmt.Sprint(a))
	}
	return out
}
