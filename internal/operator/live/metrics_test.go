package live

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/redis/go-redis/v9"
	"go.yaml.in/yaml/v3"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/redistest"
)

// metrics parses the text exposition format with the Prometheus parser
// (classic metric names), fails on a series given twice, and returns
// each sample by its series, e.g. `lockvet_lock_keys{pattern="lock:*",redis="…"}`.
func metrics(t *testing.T, text string) map[string]float64 {
	t.Helper()
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the metrics do not parse: %v\n%s", err, text)
	}
	out := map[string]float64{}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
			}
			slices.Sort(labels)
			series := name
			if len(labels) > 0 {
				series += "{" + strings.Join(labels, ",") + "}"
			}
			if _, dup := out[series]; dup {
				t.Errorf("series %s given twice", series)
			}
			switch f.GetType() {
			case dto.MetricType_GAUGE:
				out[series] = m.GetGauge().GetValue()
			case dto.MetricType_COUNTER:
				out[series] = m.GetCounter().GetValue()
			default:
				out[series] = 0 // the Go and process collectors' summaries
			}
		}
	}
	return out
}

// series names a lockvet series of the server addr.
func series(name, addr, pattern string) string {
	if pattern == "" {
		return fmt.Sprintf("%s{redis=%q}", name, addr)
	}
	return fmt.Sprintf("%s{pattern=%q,redis=%q}", name, pattern, addr)
}

// TestMetricsFormat: -format prometheus prints one scan's figures; a
// failed scan still prints them, saying it failed, with no lock figures.
func TestMetricsFormat(t *testing.T) {
	s := redistest.Redis(t)
	admin := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer admin.Close()
	plant(t, admin)

	r := runLive(t, "-redis", s.Addr, "-pattern", "lock:*", "-pattern", "lease:*", "-pattern", "nothing:*", "-format", "prometheus")
	r.WantCode(t, driver.ExitFindings) // lock:job:report has no TTL
	m := metrics(t, r.Stdout)
	want := map[string]float64{
		series("lockvet_lock_keys", s.Addr, "lock:*"):                     4, // not the hash
		series("lockvet_lock_keys_without_ttl", s.Addr, "lock:*"):         1,
		series("lockvet_lock_keys_ttl_above_code", s.Addr, "lock:*"):      0, // no code: no code TTL
		series("lockvet_lock_keys_older_than_code_ttl", s.Addr, "lock:*"): 0,
		series("lockvet_lock_keys", s.Addr, "lease:*"):                    1,
		series("lockvet_lock_keys", s.Addr, "nothing:*"):                  0,
		series("lockvet_lock_keys_without_ttl", s.Addr, "nothing:*"):      0,
		series("lockvet_live_scan_success", s.Addr, ""):                   1,
		series("lockvet_live_scans_total", s.Addr, ""):                    1,
		series("lockvet_live_scan_errors_total", s.Addr, ""):              0,
		series("lockvet_live_keys_inspected", s.Addr, ""):                 6,
		series("lockvet_live_scan_truncated", s.Addr, ""):                 0,
	}
	for k, v := range want {
		if got, ok := m[k]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	for _, k := range []string{
		series("lockvet_lock_oldest_age_seconds", s.Addr, "lock:*"),
		series("lockvet_lock_longest_idle_seconds", s.Addr, "lock:*"),
		series("lockvet_live_scan_duration_seconds", s.Addr, ""),
		series("lockvet_live_last_success_timestamp_seconds", s.Addr, ""),
	} {
		if _, ok := m[k]; !ok {
			t.Errorf("%s missing", k)
		}
	}
	for _, k := range []string{
		series("lockvet_lock_oldest_age_seconds", s.Addr, "nothing:*"), // no key, no age
		series("lockvet_lock_code_ttl_seconds", s.Addr, "lock:*"),      // no code read
	} {
		if _, ok := m[k]; ok {
			t.Errorf("%s present", k)
		}
	}
	if now := float64(time.Now().Unix()); m[series("lockvet_live_last_scan_timestamp_seconds", s.Addr, "")] < now-600 {
		t.Errorf("last scan %v, now %v", m[series("lockvet_live_last_scan_timestamp_seconds", s.Addr, "")], now)
	}

	// A scan that fails: exit 2, and metrics that say so.
	addr := fmt.Sprintf("127.0.0.1:%d", redistest.FreePort(t))
	r = runLive(t, "-redis", addr, "-pattern", "lock:*", "-format", "prometheus", "-timeout", "5s")
	r.WantCode(t, driver.ExitError)
	m = metrics(t, r.Stdout)
	if m[series("lockvet_live_scan_success", addr, "")] != 0 || m[series("lockvet_live_scan_errors_total", addr, "")] != 1 ||
		!strings.Contains(r.Stderr, "cannot reach Redis at "+addr) {
		t.Errorf("failed scan: %v\nstderr %s", m, r.Stderr)
	}
	for k := range m {
		if strings.HasPrefix(k, "lockvet_lock_keys") || strings.HasPrefix(k, "lockvet_live_last_success") {
			t.Errorf("a failed scan gives %s", k)
		}
	}
}

// listener is a lockvet live -listen running in the test's process.
type listener struct {
	url      string
	cancel   context.CancelFunc
	done     chan int // Live's exit status
	log      *syncLog
	stopOnce sync.Once
	code     int
}

// syncLog is a stderr that the exporter's goroutines may write to while
// the test reads it.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// listen starts lockvet live -listen with args and waits until it serves.
func listen(t *testing.T, args ...string) *listener {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := &listener{cancel: cancel, done: make(chan int, 1), log: &syncLog{}}
	go func() { l.done <- Live(ctx, append([]string{"-listen", "127.0.0.1:0"}, args...), io.Discard, l.log) }()
	t.Cleanup(func() { l.stop() })
	served := regexp.MustCompile(`serving (http://\S+/metrics)`)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if m := served.FindStringSubmatch(l.log.String()); m != nil {
			l.url = m[1]
			return l
		}
		select {
		case code := <-l.done:
			l.done <- code
			t.Fatalf("lockvet live -listen returned %d\n%s", code, l.log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("lockvet live -listen did not start serving\n%s", l.log)
		}
	}
}

// stop ends the exporter as SIGTERM does (its context ends) and returns
// its exit status.
func (l *listener) stop() int {
	l.stopOnce.Do(func() {
		l.cancel()
		l.code = <-l.done
	})
	return l.code
}

// scrape fetches and parses /metrics.
func (l *listener) scrape(t *testing.T) map[string]float64 {
	t.Helper()
	resp, err := http.Get(l.url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", l.url, resp.StatusCode, err)
	}
	return metrics(t, string(body))
}

// await scrapes until cond holds.
func (l *listener) await(t *testing.T, what string, cond func(map[string]float64) bool) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		m := l.scrape(t)
		if cond(m) {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30s; last scrape %v\nlog:\n%s", what, m, l.log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestMetricsListen: lockvet live -listen on the example module's code
// serves the figures of a stuck lock planted in a real redis-server after
// it started, with the code's TTLs; scrapes never start scans; a failing
// scan is counted and keeps the last figures; SIGTERM ends it with 0.
func TestMetricsListen(t *testing.T) {
	s := redistest.Redis(t)
	ctx := context.Background()
	admin := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer admin.Close()
	const interval = 2 * time.Second
	l := listen(t, "-C", clitest.ExampleDir(), "-redis", s.Addr, "-interval", interval.String(), "./...")
	a := s.Addr

	// The keys are planted after the code is read: their TTLs are short.
	plant(t, admin)
	m := l.await(t, "the stuck lock", func(m map[string]float64) bool {
		return m[series("lockvet_lock_keys_without_ttl", a, "lock:job:*")] == 1 && m[series("lockvet_lock_keys", a, "lock:order:*")] == 2
	})
	for k, v := range map[string]float64{
		series("lockvet_lock_code_ttl_seconds", a, "lock:order:*"):         15, // orders/orders.go
		series("lockvet_lock_keys_ttl_above_code", a, "lock:order:*"):      1,  // lock:order:43, 1h
		series("lockvet_lock_keys_without_ttl", a, "lock:order:*"):         0,
		series("lockvet_lock_keys_older_than_code_ttl", a, "lock:order:*"): 0,
		series("lockvet_live_scan_success", a, ""):                         1,
	} {
		if m[k] != v {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	// lock:order:42 was set with 10s; the code gives 15s: at least 5s old.
	if age := m[series("lockvet_lock_oldest_age_seconds", a, "lock:order:*")]; age < 5 || age > 15 {
		t.Errorf("oldest lock:order:* age %vs, want 5s to 15s", age)
	}
	if _, ok := m["go_goroutines"]; !ok {
		t.Error("no Go runtime metrics")
	}

	// Scrapes do not scan: within one interval of scraping hard, at most
	// one scan starts.
	first := l.scrape(t)[series("lockvet_live_scans_total", a, "")]
	start := time.Now()
	for range 50 {
		l.scrape(t)
	}
	last := l.scrape(t)[series("lockvet_live_scans_total", a, "")]
	if limit := first + 1 + float64(time.Since(start)/interval); last > limit {
		t.Errorf("%v scans in %v at -interval %v (from %v)", last-first, time.Since(start), interval, first)
	}

	// A failing scan: counted, and the last figures stay.
	if err := admin.Do(ctx, "ACL", "SETUSER", "default", "resetpass", ">now-required").Err(); err != nil {
		t.Fatal(err)
	}
	m = l.await(t, "a failed scan", func(m map[string]float64) bool {
		return m[series("lockvet_live_scan_success", a, "")] == 0
	})
	if m[series("lockvet_live_scan_errors_total", a, "")] < 1 || m[series("lockvet_lock_keys_without_ttl", a, "lock:job:*")] != 1 {
		t.Errorf("after a failed scan: %v", m)
	}
	if !strings.Contains(l.log.String(), "scan failed: authentication to "+a+" failed") {
		t.Errorf("log:\n%s", l.log)
	}

	if code := l.stop(); code != driver.ExitClean {
		t.Errorf("stopped: exit status %d, want 0\n%s", code, l.log)
	}
}

// TestMetricsFlags: the flag combinations -listen refuses.
func TestMetricsFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-redis", "127.0.0.1:1", "-pattern", "lock:*", "-listen", "127.0.0.1:0", "-format", "json"},
		{"-redis", "127.0.0.1:1", "-pattern", "lock:*", "-listen", "127.0.0.1:0", "-interval", "10ms"},
		{"-redis", "127.0.0.1:1", "-pattern", "lock:*", "-listen", "256.0.0.1:0"},
	} {
		r := runLive(t, args...)
		r.WantCode(t, driver.ExitError)
		if r.Stderr == "" {
			t.Errorf("%q: no message", args)
		}
	}
}

func TestKeyAge(t *testing.T) {
	for _, tc := range []struct{ pttl, idle, code, want int64 }{
		{-1, 3600, 0, 3600_000},    // no TTL: as old as it is idle
		{-1, -1, 15000, -1},        // no TTL, no idle time: unknown
		{10_000, 2, 15000, 5000},   // 15s lock with 10s left: 5s old
		{10_000, 9, 15000, 9000},   // idle longer than that: at least 9s
		{3600_000, 2, 15000, 2000}, // a TTL longer than the code's: only the idle time
		{10_000, -1, 0, -1},        // code TTL unknown, no idle time
		{10_000, 4, 0, 4000},       // code TTL unknown
		{0, 0, 15000, 15000},       // about to expire
	} {
		if got := keyAge(tc.pttl, tc.idle, tc.code); got != tc.want {
			t.Errorf("keyAge(pttl %d, idle %d, code %d) = %d, want %d", tc.pttl, tc.idle, tc.code, got, tc.want)
		}
	}
}

// exportedMetrics are the names of the metrics lockvet live exports.
func exportedMetrics() []string {
	var names []string
	for _, d := range liveDescs {
		names = append(names, d.name)
	}
	slices.Sort(names)
	return names
}

// docAlertRules returns the alert rules of docs/live.md: the first yaml
// block after the "### Alert rules" heading.
func docAlertRules(t *testing.T, doc string) string {
	t.Helper()
	_, after, ok := strings.Cut(doc, "\n### Alert rules\n")
	if !ok {
		t.Fatal(`docs/live.md has no "### Alert rules" section`)
	}
	_, after, ok = strings.Cut(after, "\n```yaml\n")
	rules, _, ok2 := strings.Cut(after, "\n```\n")
	if !ok || !ok2 {
		t.Fatal("the alert rules section of docs/live.md has no yaml block")
	}
	return rules + "\n"
}

// TestAlertRules: the alert rules of docs/live.md are well-formed and name
// only metrics lockvet exports, and the metrics table lists every metric.
// With LOCKVET_PROMTOOL=1 (CI) promtool, built from source through the
// module in internal/promtool, checks the rules, runs their unit tests
// (testdata/alerts_test.yml) and lints the exposition.
func TestAlertRules(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(clitest.Root(), "docs", "live.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	exported := exportedMetrics()

	var tabled []string
	for _, m := range regexp.MustCompile("(?m)^\\| `(lockvet_[a-z_]+)` \\|").FindAllStringSubmatch(doc, -1) {
		tabled = append(tabled, m[1])
	}
	slices.Sort(tabled)
	if !slices.Equal(tabled, exported) {
		t.Errorf("docs/live.md's metrics table lists %q; lockvet live exports %q", tabled, exported)
	}

	rules := docAlertRules(t, doc)
	var file struct {
		Groups []struct {
			Name  string
			Rules []struct {
				Alert, Expr, For    string
				Labels, Annotations map[string]string
			}
		}
	}
	if err := yaml.Unmarshal([]byte(rules), &file); err != nil {
		t.Fatalf("the alert rules: %v\n%s", err, rules)
	}
	n := 0
	for _, g := range file.Groups {
		for _, r := range g.Rules {
			n++
			if r.Alert == "" || r.Expr == "" || r.Labels["severity"] == "" || r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
				t.Errorf("rule %+v: alert, expr, a severity label, a summary and a description are required", r)
			}
			if r.For != "" {
				if _, err := model.ParseDuration(r.For); err != nil {
					t.Errorf("%s: for: %v", r.Alert, err)
				}
			}
			for _, name := range regexp.MustCompile(`lockvet_[a-z_]+`).FindAllString(r.Expr, -1) {
				if !slices.Contains(exported, name) {
					t.Errorf("%s: %s is not a metric lockvet exports", r.Alert, name)
				}
			}
		}
	}
	if n != 5 {
		t.Errorf("%d alert rules, want 5", n)
	}

	t.Run("promtool", func(t *testing.T) {
		if os.Getenv("LOCKVET_PROMTOOL") != "1" {
			t.Skip("set LOCKVET_PROMTOOL=1 to build promtool from source (internal/promtool) and check the rules with it; CI does")
		}
		dir := t.TempDir()
		tests, err := os.ReadFile(filepath.Join("testdata", "alerts_test.yml"))
		if err != nil {
			t.Fatal(err)
		}
		for name, data := range map[string]string{"rules.yml": rules, "alerts_test.yml": string(tests)} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		bin := buildPromtool(t)
		promtool := func(stdin string, args ...string) {
			t.Helper()
			cmd := exec.Command(bin, args...)
			cmd.Stdin = strings.NewReader(stdin)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
			}
		}
		promtool("", "check", "rules", filepath.Join(dir, "rules.yml"))
		promtool("", "test", "rules", filepath.Join(dir, "alerts_test.yml"))

		// The exposition of a scan with every series present, and what
		// -listen serves: the same with the Go and process collectors'.
		m := everySeries()
		for _, process := range []bool{false, true} {
			var b strings.Builder
			if err := writeMetrics(&b, m.registry(process)); err != nil {
				t.Fatal(err)
			}
			promtool(b.String(), "check", "metrics")
		}
	})
}

// promtoolTags leaves out of promtool the service-discovery plugins
// (Prometheus's plugins package: every SD mechanism but file, http and
// the Kubernetes one promtool imports itself), with the cloud SDKs they
// pull in: most of what building promtool from source cost (about
// 11 minutes of a cold CI run). check rules, test rules and check
// metrics use none of them. .ci/run builds promtool with the same flags
// first, so that this build finds its compiles in the build cache.
const promtoolTags = "remove_all_sd"

// buildPromtool builds promtool from source through the module in
// internal/promtool (go build rather than go tool: go tool takes no
// -tags, not even from GOFLAGS) and returns the binary.
func buildPromtool(t *testing.T) string {
	t.Helper()
	mod, err := filepath.Abs(filepath.Join(clitest.Root(), "internal", "promtool"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "promtool")
	cmd := exec.Command("go", "build", "-C", mod, "-tags", promtoolTags, "-o", bin, "github.com/prometheus/prometheus/cmd/promtool")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building promtool: %v\n%s", err, out)
	}
	return bin
}

// everySeries are figures with every series of lockvet live present.
func everySeries() *liveMetrics {
	m := newLiveMetrics("cache:6379", []string{"lock:*"}, nil)
	m.codeTTL["lock:*"] = 15000
	m.record(&liveReport{Keys: 3, byPattern: map[string]*patternStats{"lock:*": {keys: 2, noTTL: 1, oldest: 60000, idle: 60}}}, nil, time.Second, time.Now())
	return m
}

// TestMetricsRegistry: the registry gathers one series of each metric
// lockvet live exports, with its help text and type, under the client
// library's pedantic checks; under -listen it also has the series of the
// process that the library's Go and process collectors give, among them
// the four lockvet live wrote itself before it used the library.
func TestMetricsRegistry(t *testing.T) {
	t.Parallel()
	m := everySeries()
	var b strings.Builder
	if err := writeMetrics(&b, m.registry(false)); err != nil {
		t.Fatal(err)
	}
	got := metrics(t, b.String())
	if len(got) != len(liveDescs) {
		t.Errorf("%d series, want one of each of the %d metrics:\n%s", len(got), len(liveDescs), b.String())
	}
	for _, d := range liveDescs {
		kind := "gauge"
		if d.counter {
			kind = "counter"
		}
		if !strings.Contains(b.String(), "# HELP "+d.name+" "+d.help+"\n# TYPE "+d.name+" "+kind+"\n") {
			t.Errorf("%s: no HELP %q and TYPE %s", d.name, d.help, kind)
		}
	}
	fams, err := m.registry(true).Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range fams {
		names[f.GetName()] = true
	}
	for _, name := range []string{"go_goroutines", "go_info", "go_memstats_alloc_bytes", "process_start_time_seconds", "lockvet_lock_keys"} {
		if !names[name] {
			t.Errorf("-listen serves no %s", name)
		}
	}
}
