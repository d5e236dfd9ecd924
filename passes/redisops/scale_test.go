package redisops_test

// The cost model of lockvet's analyzers, checked on generated packages:
//
//   - BenchmarkScaling reports the analysis cost per function of packages
//     with 1×, 10× and 100× as much code (lock code mixed with plain
//     code). Linear work means a flat ns/func; internal/bench runs it and
//     judges the 100×/1× ratio. No test here times anything.
//   - TestCheapPath asserts, by counting, that a package without candidate
//     calls costs no CFG and no allocation that grows with its size, and
//     that a package with lock code does build CFGs (so the counter is
//     live).

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/factgraph"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
)

// unitFiles is how many files one unit (1×) of generated code has; each
// file holds len(lockFuncs) lock functions and as many plain ones.
const unitFiles = 2

// lockFuncs are lock functions in the styles the checks look at, buggy and
// correct; %[1]d is a number unique in the package.
var lockFuncs = []string{
	// SETNX then EXPIRE (LV101).
	`func acquire%[1]d(ctx context.Context, rdb *redis.Client, token string) (bool, error) {
	key := fmt.Sprintf("lock:job%[1]d:%%s", token)
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil || !ok {
		return false, err
	}
	rdb.Expire(ctx, key, 30*time.Second)
	return true, nil
}`,
	// A lock with a TTL released by a bare DEL (LV201), suppressed.
	`func withLock%[1]d(ctx context.Context, rdb redis.UniversalClient, id string, work func()) error {
	key := "lock:order%[1]d:" + id
	token := newToken()
	ok, err := rdb.SetNX(ctx, key, token, 10*time.Second).Result()
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	//lockvet:ignore LV201 -- generated benchmark code
	defer rdb.Del(ctx, key)
	work()
	return nil
}`,
	// GET, compare, DEL (LV202).
	`func release%[1]d(ctx context.Context, rdb *redis.Client, key, token string) error {
	v, err := rdb.Get(ctx, key).Result()
	if err != nil {
		return err
	}
	if v == token {
		return rdb.Del(ctx, key).Err()
	}
	return nil
}`,
	// SETNX and EXPIRE in one MULTI/EXEC (LV102).
	`func txAcquire%[1]d(ctx context.Context, rdb *redis.Client, key string) error {
	_, err := rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.SetNX(ctx, key, "1", 0)
		p.Expire(ctx, key, time.Minute)
		return nil
	})
	return err
}`,
	// Correct: compare-and-delete script.
	`var unlock%[1]d = redis.NewScript(` + "`" + `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end` + "`" + `)

func safeRelease%[1]d(ctx context.Context, rdb *redis.Client, key, token string) error {
	return unlock%[1]d.Run(ctx, rdb, []string{key}, token).Err()
}`,
	// A TTL in the wrong unit (LV104).
	`func tryLock%[1]d(ctx context.Context, rdb *redis.Client, key, token string) bool {
	return rdb.SetNX(ctx, key, token, 30).Val()
}`,
	// A constant lock value (LV204) and its release.
	`func runExclusive%[1]d(ctx context.Context, rdb *redis.Client, f func()) {
	if !rdb.SetNX(ctx, "lock:cron%[1]d", "1", time.Minute).Val() {
		return
	}
	f()
	rdb.Del(ctx, "lock:cron%[1]d")
}`,
	// A renewal loop (LV203) with correct code around it.
	// Inferred helpers and their calls (summaries, call-site ops).
	`func takeH%[1]d(ctx context.Context, rdb *redis.Client, key, token string) bool {
	return rdb.SetNX(ctx, "h%[1]d:"+key, token, time.Minute).Val()
}

func dropH%[1]d(ctx context.Context, rdb *redis.Client, key string) error {
	//lockvet:ignore LV201 -- generated benchmark code
	return rdb.Del(ctx, "h%[1]d:"+key).Err()
}

func useHelpers%[1]d(ctx context.Context, rdb *redis.Client, id string) error {
	if !takeH%[1]d(ctx, rdb, id, newToken()) {
		return errBusy
	}
	return dropH%[1]d(ctx, rdb, id)
}`,
	`func keepAlive%[1]d(ctx context.Context, rdb *redis.Client, key, token string, stop <-chan struct{}) {
	if ok, _ := rdb.SetNX(ctx, key, token, 20*time.Second).Result(); !ok {
		return
	}
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			rdb.Expire(ctx, key, 20*time.Second)
		}
	}
}`,
}

// plainFuncs are ordinary code: loops, branches, closures, and calls whose
// method names collide with client methods (Get, Set, Del, Expire) on a
// type that is not a client.
var plainFuncs = []string{
	`func sum%[1]d(xs []int) (n int) {
	for _, x := range xs {
		if x%%2 == 0 {
			n += x
		} else {
			n -= x
		}
	}
	return n
}`,
	`func cacheGet%[1]d(c *cache, key string) string {
	if v, ok := c.Get(key); ok {
		return v
	}
	c.Set(key, strings.Repeat("x", %[1]d%%7))
	c.Expire(key, time.Second)
	v, _ := c.Get(key)
	return v
}`,
	`func evict%[1]d(c *cache, keys []string) int {
	n := 0
	for _, k := range keys {
		if strings.HasPrefix(k, "tmp:") {
			c.Del(k)
			n++
		}
	}
	return n
}`,
	`func parse%[1]d(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("bad pair %%q", kv)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}`,
	`func retry%[1]d(attempts int, f func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i) * time.Millisecond)
	}
	return err
}`,
	`func classify%[1]d(n int) string {
	switch {
	case n < 0:
		return "negative"
	case n == 0:
		return "zero"
	case n < %[1]d:
		return "small"
	}
	return "large"
}`,
	`func apply%[1]d(xs []string, f func(string) string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}`,
	`func guard%[1]d(mu *sync.Mutex, m map[string]int, k string) int {
	mu.Lock()
	defer mu.Unlock()
	m[k]++
	return m[k]
}`,
}

const plainHeader = `
type cache struct{ m map[string]string }

func (c *cache) Get(k string) (string, bool)  { v, ok := c.m[k]; return v, ok }
func (c *cache) Set(k, v string)              { c.m[k] = v }
func (c *cache) Del(k string)                 { delete(c.m, k) }
func (c *cache) Expire(k string, _ time.Duration) {}
`

const lockHeader = `
var errBusy = errors.New("busy")

func newToken() string { return fmt.Sprint(time.Now().UnixNano()) }
`

// writePackage writes package synth under dir/synth: units×unitFiles
// files, each with the plain functions and, when lock is set, the lock
// functions. It returns the number of functions written.
func writePackage(t testing.TB, dir string, units int, lock bool) int {
	t.Helper()
	pkgDir := filepath.Join(dir, "synth")
	if err := os.MkdirAll(pkgDir, 0o777); err != nil {
		t.Fatal(err)
	}
	header := "package synth\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n\t\"sync\"\n\t\"time\"\n"
	if lock {
		header += "\t\"context\"\n\t\"errors\"\n\n\t\"github.com/redis/go-redis/v9\"\n"
	}
	header += ")\n\nvar _ = fmt.Sprint\n"
	if lock {
		header += "var _ = errors.New\n"
	}
	files := units * unitFiles
	funcs := 0
	for f := range files {
		var b strings.Builder
		b.WriteString(header)
		if f == 0 {
			b.WriteString(plainHeader)
			if lock {
				b.WriteString(lockHeader)
			}
		}
		for i := range len(plainFuncs) {
			b.WriteString("\n")
			fmt.Fprintf(&b, plainFuncs[i], f*len(plainFuncs)+i)
			b.WriteString("\n")
			funcs++
			if lock {
				b.WriteString("\n")
				fmt.Fprintf(&b, lockFuncs[i%len(lockFuncs)], f*len(plainFuncs)+i)
				b.WriteString("\n")
				funcs++
			}
		}
		name := filepath.Join(pkgDir, fmt.Sprintf("f%04d.go", f))
		if err := os.WriteFile(name, []byte(b.String()), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return funcs
}

// synthModule is a fresh module directory with the test module's go.mod
// and go.sum.
func synthModule(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	td := lvtest.TestData(t)
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(td, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// loadSynth writes a generated package in a fresh module (the test module's
// go.mod and go.sum, so go-redis v9 is the real one) and loads it the way
// the lockvet CLI does: syntax and types for the package, export data for
// its dependencies.
func loadSynth(t testing.TB, units int, lock bool) (*packages.Package, int) {
	t.Helper()
	dir := synthModule(t)
	funcs := writePackage(t, dir, units, lock)
	cfg := &packages.Config{
		Mode: packages.LoadSyntax | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, "./synth")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("generated package does not load")
	}
	return pkgs[0], funcs
}

// analyze runs analyzers on pkg, sequentially, and fails on any error.
func analyze(t testing.TB, analyzers []*analysis.Analyzer, pkg *packages.Package) *checker.Graph {
	// Linked as lockvet's driver links packages for redisops' facts
	// (internal/factgraph): nothing outside the main module.
	roots := []*packages.Package{pkg}
	lock, err := analyzer.LockPackages(nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := checker.Analyze(analyzers, factgraph.Plan(roots, lock).Link(roots), &checker.Options{Sequential: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
	}
	return g
}

// floor is the no-op analyzer every inspect-based tool pays for.
var floor = &analysis.Analyzer{
	Name:     "floor",
	Doc:      "floor: requires inspect, reports nothing",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      func(*analysis.Pass) (any, error) { return nil, nil },
}

func lockvetAnalyzers(t testing.TB) []*analysis.Analyzer {
	as, err := analyzer.Analyzers(nil)
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// BenchmarkScaling: lockvet's analyzers (inspect included) on packages
// of 1×, 10× and 100× the code; ns/func should stay flat. The floor
// sub-benchmarks run only inspect, for comparison.
func BenchmarkScaling(b *testing.B) {
	analyzers := lockvetAnalyzers(b)
	for _, units := range []int{1, 10, 100} {
		pkg, funcs := loadSynth(b, units, true)
		for _, mode := range []struct {
			name string
			as   []*analysis.Analyzer
		}{{"lockvet", analyzers}, {"floor", []*analysis.Analyzer{floor}}} {
			b.Run(fmt.Sprintf("%s/x%d", mode.name, units), func(b *testing.B) {
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					analyze(b, mode.as, pkg)
				}
				cpu := cpuTime() - cpu0
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(funcs), "ns/func")
				// CPU time of the process (the analysis is sequential): on
				// a shared machine it is far steadier than wall time.
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(funcs), "cpu-ns/func")
				b.ReportMetric(float64(funcs), "funcs")
			})
		}
	}
}

// TestCheapPath: on a package with no candidate calls (plain code whose
// method names collide with client methods), lockvet builds no CFG, runs
// nothing but inspect and its own analyzers (no SSA, no ctrlflow), exports
// no fact, runs nothing on the dependencies, and allocates nothing that grows with the package beyond the
// floor's inspector walk. On lock code it does build CFGs.
func TestCheapPath(t *testing.T) {
	analyzers := lockvetAnalyzers(t)

	small, smallFuncs := loadSynth(t, 1, false)
	large, largeFuncs := loadSynth(t, 10, false)

	before := redisops.CFGBuilds()
	g := analyze(t, analyzers, large)
	if n := redisops.CFGBuilds() - before; n != 0 {
		t.Errorf("package without candidate calls: %d CFGs built, want 0", n)
	}
	for act := range g.All() {
		if a := act.Analyzer; len(a.FactTypes) > 0 && a.Name != "redisops" || a.Name == "buildssa" || a.Name == "ctrlflow" {
			t.Errorf("analyzer %s runs (facts or SSA): lockvet must stay on the inspect-only path", a.Name)
		}
		if n := len(act.AllObjectFacts()) + len(act.AllPackageFacts()); n > 0 {
			t.Errorf("%s exports %d facts on plain code", act.Analyzer.Name, n)
		}
		if act.Package.ID != large.ID {
			t.Errorf("%s runs on dependency %s: lockvet must analyze only the named packages", act.Analyzer.Name, act.Package.PkgPath)
		}
	}
	for _, act := range g.Roots {
		if len(act.Diagnostics) > 0 {
			t.Errorf("%s reports on plain code: %s", act.Analyzer.Name, act.Diagnostics[0].Message)
		}
	}

	// Allocations of lockvet's analyzers beyond the floor (inspect): the
	// same for 10× the code as for 1×, give or take a few.
	extra := func(pkg *packages.Package) float64 {
		lv := testing.AllocsPerRun(5, func() { analyze(t, analyzers, pkg) })
		fl := testing.AllocsPerRun(5, func() { analyze(t, []*analysis.Analyzer{floor}, pkg) })
		return lv - fl
	}
	es, el := extra(small), extra(large)
	t.Logf("allocations beyond the floor: %.0f for %d functions, %.0f for %d functions", es, smallFuncs, el, largeFuncs)
	if el > es+float64(largeFuncs)/20 {
		t.Errorf("allocations beyond the floor grow with the package: %.0f for %d functions, %.0f for %d", es, smallFuncs, el, largeFuncs)
	}

	lockPkg, _ := loadSynth(t, 1, true)
	before = redisops.CFGBuilds()
	analyze(t, analyzers, lockPkg)
	if redisops.CFGBuilds() == before {
		t.Errorf("package with lock code: no CFG built; the CFG counter is not live")
	}
}

// TestSummaryWorkLinear: the summarizer's counted work (functions read,
// calls turned into ops) grows with the package as the helpers and their
// calls do, no faster: 10x the lock code costs at most 10x the work (a
// count, not a time).
func TestSummaryWorkLinear(t *testing.T) {
	analyzers := lockvetAnalyzers(t)
	work := func(units int) int64 {
		pkg, _ := loadSynth(t, units, true)
		before := redisops.SummaryWork()
		analyze(t, analyzers[:1], pkg)
		return redisops.SummaryWork() - before
	}
	w1, w10 := work(1), work(10)
	t.Logf("summary work: %d for 1 unit, %d for 10", w1, w10)
	if w1 == 0 {
		t.Fatal("no summary work counted on lock code: the counter is not live")
	}
	if w10 > 10*w1 {
		t.Errorf("summary work grows faster than the code: %d for 1 unit, %d for 10", w1, w10)
	}
}
