package live

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/operator"
	"github.com/lockvet/lockvet/internal/redistest"
	"github.com/lockvet/lockvet/passes/inventory"
)

func TestMain(m *testing.M) {
	load = loadOnce
	clitest.Main(m)
}

var (
	loadsMu sync.Mutex
	loads   = map[string]func() loaded{}
)

type loaded struct {
	run    *operator.Run
	status int
	stderr string
}

// loadOnce is operator.Load done once per test binary for the same
// options and packages: the tests run lockvet live on the example module
// many times, and each load analyses it whole. Every call prints what the
// load printed and gets sites of its own (Live rewrites their file
// names). TestLoadOnce checks that a call gives what a load gives.
func loadOnce(o operator.Options, args []string, stderr io.Writer) (*operator.Run, int) {
	key := fmt.Sprintf("%+v %q", o, args)
	loadsMu.Lock()
	l := loads[key]
	if l == nil {
		l = sync.OnceValue(func() loaded {
			var b strings.Builder
			run, status := operator.Load(o, args, &b)
			return loaded{run, status, b.String()}
		})
		loads[key] = l
	}
	loadsMu.Unlock()
	r := l()
	io.WriteString(stderr, r.stderr)
	if r.run == nil {
		return nil, r.status
	}
	run := *r.run
	run.Sites = make([]*inventory.Site, len(r.run.Sites))
	for i, s := range r.run.Sites {
		c := *s
		run.Sites[i] = &c
	}
	return &run, r.status
}

// TestLoadOnce: a call of loadOnce gives the load's sites as they were,
// whatever Live did with those of an earlier call, and prints what the
// load printed each time.
func TestLoadOnce(t *testing.T) {
	o := operator.Options{Dir: clitest.ExampleDir()}
	sites := func(r *operator.Run) string {
		var b strings.Builder
		for _, s := range r.Sites {
			fmt.Fprintf(&b, "%+v\n", *s)
		}
		return b.String()
	}
	var b1, b2 strings.Builder
	first, _ := loadOnce(o, nil, &b1)
	if first == nil || len(first.Sites) == 0 {
		t.Fatalf("no sites in the example module: %s", b1.String())
	}
	want := sites(first)
	for _, s := range first.Sites {
		s.Pos.Filename = first.Rel(s.Pos.Filename) // as Live does
	}
	second, _ := loadOnce(o, nil, &b2)
	if got := sites(second); got != want {
		t.Errorf("the second call's sites:\n%s\nwant the load's:\n%s", got, want)
	}
	if b1.String() != b2.String() {
		t.Errorf("the second call printed %q, the load %q", b2.String(), b1.String())
	}
}

// runLive runs lockvet live with args in the test's process.
func runLive(t *testing.T, args ...string) clitest.RunResult {
	t.Helper()
	var stdout, stderr strings.Builder
	code := Live(context.Background(), args, &stdout, &stderr)
	return clitest.RunResult{Stdout: stdout.String(), Stderr: stderr.String(), Code: code}
}

// plant writes the keys of the live tests: one stuck lock (no TTL), a
// healthy lock, a lock whose TTL is longer than the code sets, and keys
// that are not locks (a cache entry and a counter with no TTL, a hash
// under a lock pattern).
func plant(t *testing.T, c *redis.Client) {
	t.Helper()
	ctx := context.Background()
	for _, err := range []error{
		c.Set(ctx, "lock:job:report", "worker-7", 0).Err(),            // stuck: no TTL
		c.Set(ctx, "lock:order:42", "token", 10*time.Second).Err(),    // healthy: the code sets 15s
		c.Set(ctx, "lock:order:43", "token", time.Hour).Err(),         // longer than the code sets
		c.Set(ctx, "cache:order:1", "summary", 0).Err(),               // not a lock pattern
		c.Set(ctx, "rate:customer-9", "3", 0).Err(),                   // not a lock pattern
		c.HSet(ctx, "lock:billing:stats", "runs", 3).Err(),            // a lock pattern, but not a string
		c.HSet(ctx, "order:42", "address", "1 Main St").Err(),         // not a lock
		c.Set(ctx, "lease:job-1", "token", 30*time.Second).Err(),      // healthy, TTL unknown in the code
		c.Set(ctx, "lock:billing:nightly", "t", 2*time.Hour).Err(),    // healthy
		c.Set(ctx, "scheduler:leader", "instance-1", time.Hour).Err(), // TTL not a constant in the code
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// keyspace is every key with its type, value (strings) and whether it has
// a TTL, to show a scan changed nothing.
func keyspace(t *testing.T, c *redis.Client) map[string]string {
	t.Helper()
	ctx := context.Background()
	keys, err := c.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, k := range keys {
		typ := c.Type(ctx, k).Val()
		v := typ
		if typ == "string" {
			v += " " + c.Get(ctx, k).Val()
		}
		if c.PTTL(ctx, k).Val() < 0 {
			v += " no-ttl"
		}
		out[k] = v
	}
	return out
}

// readCommands are the commands the live check may send (INFO
// commandstats names), and the ones the test itself sends.
var readCommands = map[string]bool{
	"hello": true, "auth": true, "ping": true, "info": true, "cluster|nodes": true,
	"scan": true, "pttl": true, "object|idletime": true, "type": true,
	"config|resetstat": true, // the test's own reset
}

// commandStats returns the commands the server ran since the last
// CONFIG RESETSTAT.
func commandStats(t *testing.T, c *redis.Client) []string {
	t.Helper()
	info, err := c.Info(context.Background(), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for line := range strings.Lines(info) {
		if name, ok := strings.CutPrefix(line, "cmdstat_"); ok {
			cmds = append(cmds, name[:strings.IndexByte(name, ':')])
		}
	}
	slices.Sort(cmds)
	return cmds
}

// liveJSON is the JSON output of lockvet live.
type liveJSON struct {
	Nodes   []string  `json:"nodes"`
	Cluster bool      `json:"cluster"`
	Keys    int       `json:"keys_inspected"`
	Stuck   []liveKey `json:"stuck"`
	Long    []liveKey `json:"long_ttl"`
}

func parseLive(t *testing.T, out string) liveJSON {
	t.Helper()
	var j liveJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("live -format json: %v\n%s", err, out)
	}
	return j
}

func stuckKeys(j liveJSON) []string {
	var ks []string
	for _, k := range j.Stuck {
		ks = append(ks, k.Key)
	}
	slices.Sort(ks)
	return ks
}

// TestLive: on the example module's patterns, the scan finds exactly the
// stuck lock (and, listed apart, the lock whose TTL is longer than the
// code's), exits 1, and runs no write command.
func TestLive(t *testing.T) {
	s := redistest.Redis(t)
	admin := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer admin.Close()
	plant(t, admin)
	before := keyspace(t, admin)
	if err := admin.ConfigResetStat(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}

	r := runLive(t, "-C", clitest.ExampleDir(), "-redis", s.Addr)
	r.WantCode(t, driver.ExitFindings)
	var reported []string
	for line := range strings.Lines(r.Stdout) {
		if key, _, ok := strings.Cut(line, ": "); ok && !strings.Contains(key, " ") {
			reported = append(reported, key)
		}
	}
	if want := []string{"lock:job:report", "lock:order:43"}; !slices.Equal(reported, want) {
		t.Errorf("reported keys %q, want %q\nstdout:\n%s\nstderr:\n%s", reported, want, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "lock:job:report: no TTL") || !strings.Contains(r.Stdout, "scheduler/scheduler.go:64:13") ||
		!regexp.MustCompile(`lock:order:43: TTL (1h0m0s|59m[0-9]+s) left, longer than the 15s the code sets`).MatchString(r.Stdout) {
		t.Errorf("stdout:\n%s", r.Stdout)
	}
	if cmds := commandStats(t, admin); slices.ContainsFunc(cmds, func(c string) bool { return !readCommands[c] }) {
		t.Errorf("the scan ran commands outside the read-only set: %q", cmds)
	} else if !slices.Contains(cmds, "pttl") || !slices.Contains(cmds, "object|idletime") || !slices.Contains(cmds, "scan") {
		t.Errorf("commandstats %q: the scan did not run", cmds)
	}
	if after := keyspace(t, admin); !mapsEqual(before, after) {
		t.Errorf("the scan changed the data:\nbefore %v\nafter  %v", before, after)
	}

	// JSON, with -strict: the same keys; the long TTL alone also fails.
	r = runLive(t, "-C", clitest.ExampleDir(), "-redis", s.Addr, "-format", "json")
	r.WantCode(t, driver.ExitFindings)
	j := parseLive(t, r.Stdout)
	if got := stuckKeys(j); !slices.Equal(got, []string{"lock:job:report"}) || len(j.Long) != 1 || j.Long[0].Key != "lock:order:43" || j.Long[0].CodeTTL != 15000 {
		t.Errorf("json: stuck %q, long %+v", got, j.Long)
	}
	if err := admin.Del(context.Background(), "lock:job:report").Err(); err != nil {
		t.Fatal(err)
	}
	runLive(t, "-C", clitest.ExampleDir(), "-redis", s.Addr).WantCode(t, driver.ExitClean)
	runLive(t, "-C", clitest.ExampleDir(), "-redis", s.Addr, "-strict").WantCode(t, driver.ExitFindings)

	// Given patterns: no packages needed; the hash is not a lock.
	r = runLive(t, "-redis", s.Addr, "-pattern", "lock:billing:*", "-pattern", "rate:*", "-format", "json")
	r.WantCode(t, driver.ExitFindings)
	if got := stuckKeys(parseLive(t, r.Stdout)); !slices.Equal(got, []string{"rate:customer-9"}) {
		t.Errorf("-pattern lock:billing:* -pattern rate:*: stuck %q", got)
	}

	// -max-keys stops early and says so.
	r = runLive(t, "-redis", s.Addr, "-pattern", "*o*", "-max-keys", "2", "-count", "1")
	if !strings.Contains(r.Stderr, "-max-keys 2") {
		t.Errorf("-max-keys: stderr %q", r.Stderr)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// aclLine returns the ACL SETUSER line of docs/live.md, so that the
// documented user is the one tested.
func aclLine(t *testing.T) []any {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(clitest.Root(), "docs", "live.md"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(doc)) {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "ACL SETUSER lockvet "); ok {
			args := []any{"ACL", "SETUSER", "lockvet"}
			for _, f := range strings.Fields(rest) {
				if strings.HasPrefix(f, ">") {
					f = ">test-password"
				}
				args = append(args, strings.Trim(f, `'"`))
			}
			return args
		}
	}
	t.Fatal("docs/live.md has no line starting with ACL SETUSER lockvet")
	return nil
}

// TestLiveACL: the read-only user of docs/live.md can run the check and
// cannot write; a wrong password and an unreachable server are clear
// errors.
func TestLiveACL(t *testing.T) {
	s := redistest.Redis(t)
	ctx := context.Background()
	admin := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer admin.Close()
	plant(t, admin)
	if err := admin.Do(ctx, aclLine(t)...).Err(); err != nil {
		t.Fatalf("the ACL line of docs/live.md: %v", err)
	}
	user := redis.NewClient(&redis.Options{Addr: s.Addr, Username: "lockvet", Password: "test-password", Protocol: 2})
	defer user.Close()
	if err := user.Set(ctx, "lock:x", "1", 0).Err(); err == nil || !strings.Contains(err.Error(), "NOPERM") {
		t.Errorf("the documented user can write: SET = %v", err)
	}
	if err := user.Del(ctx, "lock:job:report").Err(); err == nil || !strings.Contains(err.Error(), "NOPERM") {
		t.Errorf("the documented user can delete: DEL = %v", err)
	}

	t.Setenv("LOCKVET_REDIS_USER", "lockvet")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "test-password")
	r := runLive(t, "-C", clitest.ExampleDir(), "-redis", s.Addr, "-format", "json")
	r.WantCode(t, driver.ExitFindings)
	if got := stuckKeys(parseLive(t, r.Stdout)); !slices.Equal(got, []string{"lock:job:report"}) {
		t.Errorf("as the ACL user: stuck %q\nstderr: %s", got, r.Stderr)
	}

	t.Setenv("LOCKVET_REDIS_PASSWORD", "wrong")
	r = runLive(t, "-C", clitest.ExampleDir(), "-redis", s.Addr, "-pattern", "lock:*")
	r.WantCode(t, driver.ExitError)
	if !strings.Contains(r.Stderr, `authentication to `+s.Addr+` failed for user "lockvet" (password from LOCKVET_REDIS_PASSWORD)`) || strings.Contains(r.Stderr, "wrong") {
		t.Errorf("wrong password: stderr %q", r.Stderr)
	}

	// A user without PTTL: the missing permission is named.
	if err := admin.Do(ctx, "ACL", "SETUSER", "partial", "on", ">pw", "~*", "-@all", "+scan", "+info", "+ping").Err(); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LOCKVET_REDIS_USER", "partial")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "pw")
	r = runLive(t, "-C", clitest.ExampleDir(), "-redis", s.Addr, "-pattern", "lock:*")
	r.WantCode(t, driver.ExitError)
	if !strings.Contains(r.Stderr, "lacks a permission") || !strings.Contains(r.Stderr, "pttl") {
		t.Errorf("missing permission: stderr %q", r.Stderr)
	}

	// Nothing listens on a fresh port.
	t.Setenv("LOCKVET_REDIS_USER", "")
	t.Setenv("LOCKVET_REDIS_PASSWORD", "")
	addr := fmt.Sprintf("127.0.0.1:%d", redistest.FreePort(t))
	r = runLive(t, "-redis", addr, "-pattern", "lock:*", "-timeout", "5s")
	r.WantCode(t, driver.ExitError)
	if !strings.Contains(r.Stderr, "cannot reach Redis at "+addr) {
		t.Errorf("unreachable: stderr %q", r.Stderr)
	}
}

// TestLiveCluster: in a cluster, every master is scanned.
func TestLiveCluster(t *testing.T) {
	ctx := context.Background()
	const n = 3
	nodes := redistest.Cluster(t, n)
	var addrs []string
	for _, s := range nodes {
		addrs = append(addrs, s.Addr)
	}
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	defer cc.Close()
	var want []string
	for i := range 30 {
		k := fmt.Sprintf("lock:c:%d", i)
		ttl := time.Duration(0)
		if i%2 == 1 {
			ttl = time.Minute
		} else {
			want = append(want, k)
		}
		if err := cc.Set(ctx, k, "t", ttl).Err(); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(want)
	r := runLive(t, "-redis", nodes[0].Addr, "-pattern", "lock:c:*", "-format", "json")
	r.WantCode(t, driver.ExitFindings)
	j := parseLive(t, r.Stdout)
	if got := stuckKeys(j); !slices.Equal(got, want) {
		t.Errorf("stuck %q, want %q\nstderr: %s", got, want, r.Stderr)
	}
	if !j.Cluster || len(j.Nodes) != n || j.Keys != 30 {
		t.Errorf("cluster %v, nodes %q, keys %d; want a cluster of %d masters, 30 keys", j.Cluster, j.Nodes, j.Keys, n)
	}
	perNode := map[string]int{}
	for _, k := range j.Stuck {
		perNode[k.Node]++
	}
	if len(perNode) != n {
		t.Errorf("stuck keys found on %d nodes, want %d: %v", len(perNode), n, perNode)
	}
}

func TestClusterMasters(t *testing.T) {
	text := `07c3 127.0.0.1:30004@31004 slave e7d1 0 1426238317239 4 connected
67ed 127.0.0.1:30002@31002,host2 master - 0 1426238316232 2 connected 5461-10922
292f 127.0.0.1:30003@31003 master - 0 1426238318243 3 connected 10923-16383
6ec2 127.0.0.1:30005@31005 master - 0 1426238316232 5 connected
e7d1 :30001@31001 myself,master - 0 0 1 connected 0-5460
`
	got, err := clusterMasters(text, "127.0.0.1:30001")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"127.0.0.1:30001", "127.0.0.1:30002", "127.0.0.1:30003"}; !slices.Equal(got, want) {
		t.Errorf("masters %q, want %q", got, want)
	}
	if _, err := clusterMasters(strings.Replace(text, "292f 127.0.0.1:30003@31003 master", "292f 127.0.0.1:30003@31003 master,fail", 1), ""); err == nil {
		t.Error("a failed master is not an error")
	}
}

func TestMinimalPatterns(t *testing.T) {
	got := minimalPatterns([]string{"lock:job:*", "scheduler:leader", "lock:job:nightly-report", "lock:job:*", `lock:\*x`})
	if want := []string{`lock:\*x`, "lock:job:*", "scheduler:leader"}; !slices.Equal(got, want) {
		t.Errorf("minimalPatterns = %q, want %q", got, want)
	}
}

func TestLiveOptions(t *testing.T) {
	t.Setenv("LOCKVET_REDIS_PASSWORD", "")
	t.Setenv("REDISCLI_AUTH", "from-rediscli")
	o := &liveOptions{addr: "rediss://ops@cache.internal/2", timeout: time.Second}
	opts, err := o.clientOptions()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Addr != "cache.internal:6379" || opts.Username != "ops" || opts.DB != 2 || opts.TLSConfig == nil ||
		opts.TLSConfig.ServerName != "cache.internal" || opts.Password != "from-rediscli" {
		t.Errorf("options: %+v", opts)
	}
	o.addr = "redis://ops:secret@cache.internal"
	if _, err := o.clientOptions(); err == nil || !strings.Contains(err.Error(), "LOCKVET_REDIS_PASSWORD") {
		t.Errorf("a password in the address: %v", err)
	}
	for _, args := range [][]string{
		{},
		{"-redis", "127.0.0.1:1", "-pattern", "*"},
		{"-redis", "127.0.0.1:1", "-format", "xml"},
		{"-redis", "127.0.0.1:1", "-count", "0"},
	} {
		runLive(t, args...).WantCode(t, driver.ExitError)
	}
}

func TestLimiter(t *testing.T) {
	l := newLimiter(100)
	start := time.Now()
	for range 5 {
		if err := l.wait(context.Background(), 10); err != nil {
			t.Fatal(err)
		}
	}
	// 50 commands at 100/s: the last batch may start after 400ms.
	if d := time.Since(start); d < 350*time.Millisecond {
		t.Errorf("5 batches of 10 at 100/s took %v", d)
	}
}
