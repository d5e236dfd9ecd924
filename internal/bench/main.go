//go:build linux

// Command bench measures what lockvet costs on real modules, against the
// floor every go/analysis tool pays in the same driver (loading and
// type-checking) and against go vet:
//
//	go run ./internal/bench            # default list, 3 rounds
//	go run ./internal/bench -quick     # 1 round, two modules, no scaling run
//	go run ./internal/bench -rounds 5 -modules github.com/gomodule/redigo@v1.9.3
//	go run ./internal/bench -vettool -rounds 5   # go vet -vettool=lockvet only (vettool.go)
//
// For each pinned module (resolved through the module proxy with
// go mod download, copied to a writable work directory) it runs, in one
// process tree and in alternation (the order rotates every round):
//
//   - floor: the lockvet binary with one no-op analyzer that requires
//     inspect and reports nothing (LOCKVET_INTERNAL_BENCH=floor: same
//     binary, same loader, same output path);
//   - lockvet ./... with every check;
//   - go vet ./... with its default analyzers, its result cache defeated
//     (a distinct, inert -printf.funcs value per run), build cache warm;
//   - go vet ./... as is, which on an unchanged module is a cache hit;
//   - go vet -vettool=lockvet ./..., its result cache defeated the same
//     way (a distinct, inert -safe-release-funcs value per run: go vet
//     keeps -c for itself and does not pass it on), every run checked
//     to have run lockvet on the packages (LOCKVET_INTERNAL_BENCH=vetlog).
//
// Every tool runs once, untimed, before the rounds, so the build cache
// (export data of dependencies, compiled test dependencies) is warm.
// It prints median wall time, median CPU time (user+sys) and median peak
// RSS per tool, the ratios lockvet/floor and lockvet/vet, the
// per-analyzer time of one sequential lockvet run (sum of
// checker.Action.Duration), and the result of the scaling benchmark
// (passes/redisops BenchmarkScaling).
//
// Peak RSS is the ru_maxrss that wait4 returns for the child: the largest
// resident set of the child or of any descendant it waited for (the go
// list that go/packages runs, the vet processes go vet runs), not the sum
// of processes alive at the same time. The "tree" column samples the sum
// over the live process tree every 20ms, for comparison.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// defaultModules is the pinned list: go-redis v9 (large and Redis-heavy),
// go-zero (a large service framework with its own Redis lock and many
// packages that call Redis), rueidis, redigo, and golang.org/x/tools
// (large, no Redis).
var defaultModules = []string{
	"github.com/redis/go-redis/v9@v9.23.0",
	"github.com/zeromicro/go-zero@v1.10.3",
	"github.com/redis/rueidis@v1.0.79",
	"github.com/gomodule/redigo@v1.9.3",
	"golang.org/x/tools@v0.52.0",
}

var quickModules = []string{
	"github.com/redis/go-redis/v9@v9.23.0",
	"github.com/gomodule/redigo@v1.9.3",
}

// Targets.
const (
	maxVsFloor   = 1.15 // lockvet / floor, wall and peak RSS (issue 14)
	maxVsVet     = 0.50 // lockvet / go vet, wall, on go-redis v9; and go vet -vettool=lockvet / go vet, on every module
	maxScaling   = 110  // cost of 100× the code / cost of 1×
	vetTargetMod = "github.com/redis/go-redis/v9"
)

func main() {
	var (
		rounds   = flag.Int("rounds", 3, "timed rounds per module (each runs every tool once)")
		quick    = flag.Bool("quick", false, "1 round, go-redis v9 and redigo only, no scaling benchmark")
		modules  = flag.String("modules", "", "comma-separated `path@version` list replacing the default")
		work     = flag.String("work", filepath.Join(os.TempDir(), "lockvet-bench"), "work `dir` (module copies, binary, profiles); kept between runs")
		scaling  = flag.Bool("scaling", true, "run the scaling benchmark (passes/redisops BenchmarkScaling)")
		profile  = flag.Bool("profile", false, "write a CPU profile of one lockvet run per module to the work dir")
		markdown = flag.String("markdown", "", "also write the results table as Markdown to `file`")
		vettool  = flag.Bool("vettool", false, "measure only go vet against go vet -vettool=lockvet, every package analysed again and the module's packages edited (see vettoolModule)")
		compare  = flag.String("compare", "", "with -vettool: also time go vet -vettool=BIN for each of these comma-separated `binaries` (lockvet built at an earlier commit, say), in the same rounds")
	)
	flag.Parse()
	mods := defaultModules
	if *quick {
		*rounds, *scaling, mods = 1, false, quickModules
	}
	if *modules != "" {
		mods = strings.Split(*modules, ",")
	}
	b := &bench{work: *work, rounds: max(*rounds, 1), profile: *profile, compare: *compare}
	if *vettool {
		if *modules == "" {
			mods = []string{vetTargetMod + "@v9.23.0"}
		}
		if err := b.runVettool(mods); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := b.run(mods, *scaling, *markdown); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type bench struct {
	work    string
	root    string // the lockvet module
	lockvet string // the built binary
	rounds  int
	profile bool
	out     io.Writer
	nonce   int
	compare string // -compare: another lockvet binary
}

// tool is one measured command.
type tool struct {
	name string
	args func(b *bench) []string
	env  []string
	// vetLog: lockvet runs as go vet's tool; count the packages it ran on.
	vetLog bool
}

var tools = []tool{
	{name: "floor", args: func(b *bench) []string { return []string{b.lockvet, "./..."} }, env: []string{"LOCKVET_INTERNAL_BENCH=floor"}},
	{name: "lockvet", args: func(b *bench) []string { return []string{b.lockvet, "./..."} }},
	{name: "go vet", args: func(b *bench) []string {
		b.nonce++
		// An inert flag value that changes go vet's cache key, so that
		// every run analyzes; nothing is named like this.
		return []string{"go", "vet", fmt.Sprintf("-printf.funcs=LockvetBenchNonce%d_%d", os.Getpid(), b.nonce), "./..."}
	}},
	{name: "go vet (cached)", args: func(*bench) []string { return []string{"go", "vet", "./..."} }},
	{name: "vettool", args: func(b *bench) []string {
		b.nonce++
		// lockvet as go vet's vet tool. Its own inert flag value keeps
		// go vet's cache from answering, as for go vet above: a declared
		// safe release function in a package that does not exist. (Not
		// -c: go vet implements -c itself and leaves it out of the
		// tool's flags and of its cache key.)
		return []string{"go", "vet", "-vettool=" + b.lockvet,
			fmt.Sprintf("-safe-release-funcs=lockvetbench.invalid/nonce.F%d_%d:key=0", os.Getpid(), b.nonce), "./..."}
	}, vetLog: true},
}

// sample is one measured run.
type sample struct {
	wall, cpu time.Duration
	rss       int64 // KiB, ru_maxrss
	tree      int64 // KiB, sampled peak of the summed process tree
	exit      int
	vetRuns   int // packages go vet ran lockvet on (tools with vetLog)
}

type moduleResult struct {
	path, version  string
	lines, pkgs    int
	samples        map[string][]sample
	times          *benchTimes
	profile        string
	errs           []string
	lockvetStderrs []string
}

// setup makes the work directory and builds lockvet from the module the
// benchmark runs in.
func (b *bench) setup() error {
	b.out = os.Stdout
	if err := os.MkdirAll(b.work, 0o777); err != nil {
		return err
	}
	root, err := goOutput("", "env", "GOMOD")
	if err != nil || root == "" || root == os.DevNull {
		return fmt.Errorf("run from inside the lockvet module (go env GOMOD: %q, %v)", root, err)
	}
	b.root = filepath.Dir(root)
	b.lockvet = filepath.Join(b.work, "lockvet")
	if out, err := command(b.root, nil, "go", "build", "-o", b.lockvet, "./cmd/lockvet").CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/lockvet: %v\n%s", err, out)
	}
	return nil
}

func (b *bench) run(mods []string, scaling bool, markdown string) error {
	start := time.Now()
	if err := b.setup(); err != nil {
		return err
	}
	goVersion, _ := goOutput("", "env", "GOVERSION")
	fmt.Fprintf(b.out, "lockvet benchmark, %s, %s, %d CPUs, GOMAXPROCS %d, %s/%s\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), goVersion, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(b.out, "work dir %s; %d timed round(s) per module, tools alternating (order rotates each round)\n", b.work, b.rounds)
	fmt.Fprintf(b.out, "load average at start: %s\n\n", loadavg())

	var results []*moduleResult
	for _, m := range mods {
		r, err := b.module(m)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	table := b.report(results)
	if scaling {
		b.scaling()
	}
	fmt.Fprintf(b.out, "\nload average at end: %s; total %s\n", loadavg(), time.Since(start).Round(time.Second))
	if n := runtime.NumCPU(); loadAbove(float64(n)) {
		fmt.Fprintf(b.out, "note: the load average exceeds the %d CPUs: other processes competed for the CPU and wall times are inflated; CPU times are the steadier measure\n", n)
	}
	if markdown != "" {
		return os.WriteFile(markdown, []byte(table), 0o666)
	}
	return nil
}

// module prepares one module and measures every tool on it.
func (b *bench) module(spec string) (*moduleResult, error) {
	path, version, ok := strings.Cut(spec, "@")
	if !ok {
		return nil, fmt.Errorf("module %q: want path@version", spec)
	}
	r := &moduleResult{path: path, version: version, samples: map[string][]sample{}}
	dir, err := b.prepare(path, version)
	if err != nil {
		return nil, err
	}
	if r.lines, r.pkgs, err = countLines(dir); err != nil {
		return nil, err
	}
	fmt.Fprintf(b.out, "== %s@%s: %d packages, %d lines of Go (with tests)\n", path, version, r.pkgs, r.lines)

	// Warm the build cache: one untimed run of every tool.
	fmt.Fprintf(b.out, "   warming the build cache (one untimed run of each tool)...\n")
	for _, t := range tools {
		if s, stderr := b.measure(dir, t); s.exit > 1 || t.name != "lockvet" && t.name != "floor" && t.name != "vettool" && s.exit != 0 {
			r.errs = append(r.errs, fmt.Sprintf("%s exited %d during warm-up: %s", t.name, s.exit, firstLine(stderr)))
		}
	}
	for round := range b.rounds {
		for i := range tools {
			t := tools[(i+round)%len(tools)]
			s, stderr := b.measure(dir, t)
			r.samples[t.name] = append(r.samples[t.name], s)
			if t.vetLog && s.vetRuns == 0 {
				r.errs = append(r.errs, fmt.Sprintf("round %d: go vet ran lockvet on no package (its result cache answered): the %s time measures nothing", round+1, t.name))
			}
			if t.name == "lockvet" && stderr != "" {
				r.lockvetStderrs = append(r.lockvetStderrs, firstLine(stderr))
			}
		}
		fmt.Fprintf(b.out, "   round %d: %s\n", round+1, b.roundLine(r, round))
	}

	// Per-analyzer times: one sequential lockvet run.
	timesFile := filepath.Join(b.work, sanitize(path)+".times.json")
	env := "LOCKVET_INTERNAL_BENCH=seq,times=" + timesFile
	if b.profile {
		r.profile = filepath.Join(b.work, sanitize(path)+".cpu.pprof")
		env += ",cpuprofile=" + r.profile
	}
	b.measure(dir, tool{name: "lockvet (sequential, timed per analyzer)", args: tools[1].args, env: []string{env}})
	if data, err := os.ReadFile(timesFile); err == nil {
		r.times = new(benchTimes)
		if err := json.Unmarshal(data, r.times); err != nil {
			r.times = nil
		}
	}
	b.printTimes(r)
	fl, lv, vet := summarize(r.samples["floor"]), summarize(r.samples["lockvet"]), summarize(r.samples["go vet"])
	fmt.Fprintf(b.out, "   medians: lockvet/floor wall %.2f, cpu %.2f, peak RSS %.2f; lockvet/go vet wall %.2f\n\n",
		lv.wall.Seconds()/fl.wall.Seconds(), lv.cpu.Seconds()/fl.cpu.Seconds(), float64(lv.rss)/float64(fl.rss), lv.wall.Seconds()/vet.wall.Seconds())
	return r, nil
}

func (b *bench) roundLine(r *moduleResult, round int) string {
	var parts []string
	for _, t := range tools {
		s := r.samples[t.name][round]
		part := fmt.Sprintf("%s %.2fs (cpu %.2fs) %dMB", t.name, s.wall.Seconds(), s.cpu.Seconds(), s.rss>>10)
		if t.vetLog {
			part += fmt.Sprintf(" (%d packages)", s.vetRuns)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

// prepare downloads the module through the module proxy and copies it to a
// writable directory (the module cache is read-only), with its
// dependencies downloaded.
func (b *bench) prepare(path, version string) (string, error) {
	dir := filepath.Join(b.work, "src", sanitize(path)+"@"+version)
	marker := filepath.Join(dir, ".lockvet-bench-ready")
	if _, err := os.Stat(marker); err == nil {
		return dir, nil
	}
	out, err := command(b.work, nil, "go", "mod", "download", "-json", path+"@"+version).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v\n%s", path, version, err, out)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %v %s", path, version, err, info.Error)
	}
	os.RemoveAll(dir)
	if err := copyTree(info.Dir, dir); err != nil {
		return "", err
	}
	if out, err := command(dir, nil, "go", "mod", "download").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go mod download in %s: %v\n%s", dir, err, out)
	}
	return dir, os.WriteFile(marker, nil, 0o666)
}

// measure runs t in dir and returns its wall time, CPU time and peak RSS,
// and its stderr.
func (b *bench) measure(dir string, t tool) (sample, string) {
	args := t.args(b)
	env := t.env
	logFile := filepath.Join(b.work, "vetlog")
	if t.vetLog {
		os.Remove(logFile)
		env = append(slices.Clone(env), "LOCKVET_INTERNAL_BENCH=vetlog="+logFile)
	}
	cmd := command(dir, env, args[0], args[1:]...)
	var stderr bytes.Buffer
	cmd.Stdout = io.Discard
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{exit: -1}, err.Error()
	}
	stop := make(chan struct{})
	var tree int64
	var wg sync.WaitGroup
	wg.Go(func() { tree = sampleTree(cmd.Process.Pid, stop) })
	cmd.Wait()
	wall := time.Since(start)
	close(stop)
	wg.Wait()
	s := sample{wall: wall, tree: tree, exit: cmd.ProcessState.ExitCode()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rss = ru.Maxrss // KiB on Linux
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if t.vetLog {
		data, _ := os.ReadFile(logFile)
		s.vetRuns = bytes.Count(data, []byte("\n"))
	}
	return s, stderr.String()
}

// command is a command in dir with the environment the benchmark uses:
// no workspace, module mode that may complete go.sum, local toolchain.
func command(dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

func goOutput(dir string, args ...string) (string, error) {
	out, err := command(dir, nil, "go", args...).Output()
	return strings.TrimSpace(string(out)), err
}

// countLines counts the packages ./... matches and the lines of their Go
// files, test files included (what go vet and lockvet analyze).
func countLines(dir string) (lines, pkgs int, err error) {
	out, err := command(dir, nil, "go", "list", "-e", "-f", `{{.Dir}}{{range .GoFiles}}|{{.}}{{end}}{{range .CgoFiles}}|{{.}}{{end}}{{range .TestGoFiles}}|{{.}}{{end}}{{range .XTestGoFiles}}|{{.}}{{end}}`, "./...").Output()
	if err != nil {
		return 0, 0, fmt.Errorf("go list in %s: %v", dir, err)
	}
	for line := range strings.Lines(string(out)) {
		fields := strings.Split(strings.TrimSpace(line), "|")
		pkgs++
		for _, f := range fields[1:] {
			data, err := os.ReadFile(filepath.Join(fields[0], f))
			if err != nil {
				return 0, 0, err
			}
			lines += bytes.Count(data, []byte("\n"))
		}
	}
	return lines, pkgs, nil
}

// benchTimes is what lockvet writes with LOCKVET_INTERNAL_BENCH=times=FILE.
type benchTimes struct {
	Packages   int   `json:"packages"`
	LoadNS     int64 `json:"load_ns"`
	AnalyzeNS  int64 `json:"analyze_ns"`
	Sequential bool  `json:"sequential"`
	Analyzers  map[string]struct {
		NS      int64 `json:"ns"`
		Actions int   `json:"actions"`
	} `json:"analyzers"`
}

func (b *bench) printTimes(r *moduleResult) {
	t := r.times
	if t == nil {
		fmt.Fprintf(b.out, "   per-analyzer times: not available\n\n")
		return
	}
	fmt.Fprintf(b.out, "   one sequential lockvet run: load+type-check %s, analysis %s (%d packages); per analyzer (sum of checker.Action.Duration):\n",
		ms(t.LoadNS), ms(t.AnalyzeNS), t.Packages)
	names := make([]string, 0, len(t.Analyzers))
	for n := range t.Analyzers {
		names = append(names, n)
	}
	slices.SortFunc(names, func(x, y string) int { return cmp.Compare(t.Analyzers[y].NS, t.Analyzers[x].NS) })
	var line []string
	for _, n := range names {
		line = append(line, fmt.Sprintf("%s %s (%d pkgs)", n, ms(t.Analyzers[n].NS), t.Analyzers[n].Actions))
	}
	fmt.Fprintf(b.out, "     %s\n", strings.Join(line, ", "))
	// What lockvet adds to the floor, from one run: its analyzers beyond
	// inspect, against load, type-check and inspect. Both sides are timed
	// in the same process, so this share is steadier than the ratio of two
	// runs on a busy machine.
	var extra int64
	for n, a := range t.Analyzers {
		if n != "inspect" {
			extra += a.NS
		}
	}
	floor := t.LoadNS + t.Analyzers["inspect"].NS
	fmt.Fprintf(b.out, "   lockvet's analyzers beyond the floor: %s, %.1f%% of the floor's %s (load, type-check, inspect)\n", ms(extra), 100*float64(extra)/float64(floor), ms(floor))
	if r.profile != "" {
		fmt.Fprintf(b.out, "   CPU profile: %s (go tool pprof -top %s %s)\n", r.profile, b.lockvet, r.profile)
	}
}

func ms(ns int64) string { return fmt.Sprintf("%.0fms", float64(ns)/1e6) }

type summary struct {
	wall, cpu time.Duration
	rss, tree int64
}

func summarize(ss []sample) summary {
	med := func(f func(sample) int64) int64 {
		v := make([]int64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		slices.Sort(v)
		if n := len(v); n%2 == 0 {
			return (v[n/2-1] + v[n/2]) / 2
		}
		return v[len(v)/2]
	}
	return summary{
		wall: time.Duration(med(func(s sample) int64 { return int64(s.wall) })),
		cpu:  time.Duration(med(func(s sample) int64 { return int64(s.cpu) })),
		rss:  med(func(s sample) int64 { return s.rss }),
		tree: med(func(s sample) int64 { return s.tree }),
	}
}

// report prints the results table and the targets, and returns the table
// in Markdown.
func (b *bench) report(results []*moduleResult) string {
	var md strings.Builder
	fmt.Fprintf(&md, "| module | Go lines (pkgs) | floor | lockvet | go vet | go vet (cached) | go vet -vettool=lockvet | lockvet/floor wall, RSS | lockvet/vet wall | vettool/vet wall |\n")
	fmt.Fprintf(&md, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(b.out, "Medians over %d round(s): wall s / CPU s (user+sys) / peak RSS MB (ru_maxrss) / tree MB (sampled sum)\n", b.rounds)
	fmt.Fprintf(b.out, "%-40s %9s  %-24s %-24s %-24s %-24s %-24s  %s\n", "module", "lines", "floor", "lockvet", "go vet", "go vet (cached)", "vettool", "ratios")
	var verdicts []string
	for _, r := range results {
		s := map[string]summary{}
		for _, t := range tools {
			s[t.name] = summarize(r.samples[t.name])
		}
		cell := func(x summary) string {
			return fmt.Sprintf("%.2f/%.2f/%d/%d", x.wall.Seconds(), x.cpu.Seconds(), x.rss>>10, x.tree>>10)
		}
		fl, lv, vet, cached, vt := s["floor"], s["lockvet"], s["go vet"], s["go vet (cached)"], s["vettool"]
		vtRatio := vt.wall.Seconds() / vet.wall.Seconds()
		wallRatio := lv.wall.Seconds() / fl.wall.Seconds()
		cpuRatio := lv.cpu.Seconds() / fl.cpu.Seconds()
		rssRatio := float64(lv.rss) / float64(fl.rss)
		vetRatio := lv.wall.Seconds() / vet.wall.Seconds()
		name := r.path + "@" + r.version
		fmt.Fprintf(b.out, "%-40s %9d  %-24s %-24s %-24s %-24s %-24s  lockvet/floor wall %.2f cpu %.2f rss %.2f; lockvet/vet wall %.2f cpu %.2f; vs cached vet %.1f; vettool/vet wall %.2f cpu %.2f\n",
			name, r.lines, cell(fl), cell(lv), cell(vet), cell(cached), cell(vt), wallRatio, cpuRatio, rssRatio, vetRatio, lv.cpu.Seconds()/vet.cpu.Seconds(), lv.wall.Seconds()/cached.wall.Seconds(), vtRatio, vt.cpu.Seconds()/vet.cpu.Seconds())
		mdCell := func(x summary) string { return fmt.Sprintf("%.2f s, %d MB", x.wall.Seconds(), x.rss>>10) }
		fmt.Fprintf(&md, "| %s | %d (%d) | %s | %s | %s | %s | %s | %.2f, %.2f | %.2f | %.2f |\n",
			name, r.lines, r.pkgs, mdCell(fl), mdCell(lv), mdCell(vet), mdCell(cached), mdCell(vt), wallRatio, rssRatio, vetRatio, vtRatio)
		verdicts = append(verdicts, verdict(fmt.Sprintf("%s: lockvet/floor wall %.2f ≤ %.2f", r.path, wallRatio, maxVsFloor), wallRatio <= maxVsFloor))
		verdicts = append(verdicts, verdict(fmt.Sprintf("%s: lockvet/floor peak RSS %.2f ≤ %.2f", r.path, rssRatio, maxVsFloor), rssRatio <= maxVsFloor))
		if r.path == vetTargetMod {
			verdicts = append(verdicts, verdict(fmt.Sprintf("%s: lockvet/go vet wall %.2f ≤ %.2f", r.path, vetRatio, maxVsVet), vetRatio <= maxVsVet))
		}
		verdicts = append(verdicts, verdict(fmt.Sprintf("%s: go vet -vettool=lockvet / go vet wall %.2f ≤ %.2f", r.path, vtRatio, maxVsVet), vtRatio <= maxVsVet))
		for _, e := range r.errs {
			fmt.Fprintf(b.out, "   warning: %s\n", e)
		}
		if len(r.lockvetStderrs) > 0 {
			fmt.Fprintf(b.out, "   lockvet stderr (first line): %s\n", r.lockvetStderrs[0])
		}
	}
	fmt.Fprintf(b.out, "\nTargets:\n")
	for _, v := range verdicts {
		fmt.Fprintf(b.out, "  %s\n", v)
	}
	return md.String()
}

func verdict(s string, ok bool) string {
	if ok {
		return "PASS " + s
	}
	return "FAIL " + s
}

// scaling runs BenchmarkScaling and judges linearity: the cost of 100× the
// code over the cost of 1× must stay within maxScaling.
func (b *bench) scaling() {
	fmt.Fprintf(b.out, "\nScaling (go test -run '^$' -bench BenchmarkScaling ./passes/redisops): lockvet's analyzers on generated packages with 1×, 10×, 100× the functions\n")
	cmd := command(b.root, nil, "go", "test", "-run", "^$", "-bench", "BenchmarkScaling", "-benchtime", "2s", "-count", "1", "-timeout", "30m", "./passes/redisops")
	out, err := cmd.CombinedOutput()
	if err != nil {
		fmt.Fprintf(b.out, "  benchmark failed: %v\n%s\n", err, out)
		return
	}
	re := regexp.MustCompile(`^BenchmarkScaling/(\w+)/x(\d+)-\d+\s+\d+\s+(.*)$`)
	// metrics[mode][units][unit] = value
	metrics := map[string]map[int]map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		fmt.Fprintf(b.out, "  %s\n", strings.Join(strings.Fields(sc.Text()), " "))
		units, _ := strconv.Atoi(m[2])
		f := strings.Fields(m[3])
		vals := map[string]float64{}
		for i := 0; i+1 < len(f); i += 2 {
			v, _ := strconv.ParseFloat(f[i], 64)
			vals[f[i+1]] = v
		}
		if metrics[m[1]] == nil {
			metrics[m[1]] = map[int]map[string]float64{}
		}
		metrics[m[1]][units] = vals
	}
	for _, mode := range []string{"lockvet", "floor"} {
		p := metrics[mode]
		if p[1] == nil || p[100] == nil {
			fmt.Fprintf(b.out, "  %s: no result\n", mode)
			continue
		}
		ratio := func(unit string, n int) float64 { return float64(n) * p[n][unit] / p[1][unit] }
		line := fmt.Sprintf("%s: cost of 100× / cost of 1×: CPU %.0f, wall %.0f (10×: CPU %.0f, wall %.0f)",
			mode, ratio("cpu-ns/func", 100), ratio("ns/func", 100), ratio("cpu-ns/func", 10), ratio("ns/func", 10))
		if mode == "lockvet" {
			// Judged on CPU time, the analyzer's work; wall time on a
			// shared machine also counts the time others had the CPU.
			r := ratio("cpu-ns/func", 100)
			if p[1]["cpu-ns/func"] == 0 {
				r = ratio("ns/func", 100)
			}
			line = verdict(line+fmt.Sprintf("; target ≤ %d", maxScaling), r <= maxScaling)
		}
		fmt.Fprintf(b.out, "  %s\n", line)
	}
}

// sampleTree samples, every 20ms until stop, the summed RSS of pid and its
// descendants, and returns the peak in KiB.
func sampleTree(pid int, stop <-chan struct{}) int64 {
	var peak int64
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	page := int64(os.Getpagesize()) >> 10
	for {
		if sum := treeRSS(pid) * page; sum > peak {
			peak = sum
		}
		select {
		case <-stop:
			return peak
		case <-tick.C:
		}
	}
}

// treeRSS is the summed resident pages of pid and its descendants.
func treeRSS(root int) int64 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := map[int]int{}
	rss := map[int]int64{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ... field 24 is rss (pages).
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 22 {
			continue
		}
		parent[pid], _ = strconv.Atoi(f[1])
		rss[pid], _ = strconv.ParseInt(f[21], 10, 64)
	}
	var sum int64
	for pid, r := range rss {
		for p := pid; p > 1; p = parent[p] {
			if p == root {
				sum += r
				break
			}
		}
	}
	return sum
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

func loadAbove(n float64) bool {
	f := strings.Fields(loadavg())
	if len(f) == 0 {
		return false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return err == nil && v > n
}

func sanitize(path string) string { return strings.NewReplacer("/", "_", "@", "_").Replace(path) }

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// copyTree copies the regular files and directories under src to dst,
// writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o777)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o666)
	})
}
