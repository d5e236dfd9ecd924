package driver

// Internal hooks for the benchmark harness (internal/bench). They are not
// part of lockvet's interface: no flag, no documentation in -h, and they
// may change at any time. They let the harness measure lockvet against
// the cost floor of this very driver (same binary, same loader, same
// output path), and see where the time goes.
//
// LOCKVET_INTERNAL_BENCH is a comma-separated list of:
//
//	floor            run one no-op analyzer that requires inspect and
//	                 reports nothing, instead of lockvet's checks
//	seq              run the analysis actions sequentially (per-action
//	                 durations are then not inflated by contention)
//	times=FILE       write load time, analysis time and per-analyzer
//	                 durations (checker.Action.Duration summed over
//	                 packages) to FILE as JSON
//	cpuprofile=FILE  write a CPU profile of the whole run to FILE
//	memprofile=FILE  write a heap profile (after the analysis) to FILE
//	allsyntax        load every dependency from source and hand the
//	                 checker the full import graph (what x/tools' checker
//	                 asks of an analyzer with facts), instead of linking
//	                 the main module's packages only (internal/factgraph):
//	                 the cost that linking avoids
//	vetdeps=full     as go vet's tool, run unitchecker on every package,
//	                 dependencies with no facts to give included (it
//	                 type-checks each in full and writes its types),
//	                 instead of writing no types for them (internal/vettool)
//	vetlog=FILE      as go vet's tool, append a line to FILE for each
//	                 package go vet runs it on: go vet's result cache
//	                 does not see this variable, so an empty FILE says
//	                 the cache answered and nothing was measured

import (
	"encoding/json"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/packages"
)

const benchEnv = "LOCKVET_INTERNAL_BENCH"

// benchStart is when the process started (close enough: package
// initialization), so that load time is the time before the analysis.
var benchStart = time.Now()

// BenchOptions are the hooks LOCKVET_INTERNAL_BENCH turns on.
type BenchOptions struct {
	floor, seq, allSyntax         bool
	times, cpuprofile, memprofile string
	// VetDepsFull and VetLog are read by go vet's tool (internal/vettool).
	VetDepsFull bool
	VetLog      string
}

// Bench are the hooks of this run.
var Bench = func() (o BenchOptions) {
	for item := range strings.SplitSeq(os.Getenv(benchEnv), ",") {
		k, v, _ := strings.Cut(item, "=")
		switch k {
		case "floor":
			o.floor = true
		case "seq":
			o.seq = true
		case "allsyntax":
			o.allSyntax = true
		case "times":
			o.times = v
		case "cpuprofile":
			o.cpuprofile = v
		case "memprofile":
			o.memprofile = v
		case "vetdeps":
			o.VetDepsFull = v == "full"
		case "vetlog":
			o.VetLog = v
		}
	}
	return o
}()

var benchCPUProfile *os.File

func init() {
	if Bench.cpuprofile != "" {
		f, err := os.Create(Bench.cpuprofile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			benchCPUProfile = f
		}
	}
}

// floorAnalyzer is the no-op analyzer of the floor mode: what any
// inspect-based go/analysis tool pays in this driver.
var floorAnalyzer = &analysis.Analyzer{
	Name:     "floor",
	Doc:      "floor: internal benchmark baseline; requires inspect and reports nothing",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      func(*analysis.Pass) (any, error) { return nil, nil },
}

// analyzeGraph runs the analyzers on the loaded packages: checker.Analyze,
// plus the benchmark hooks when LOCKVET_INTERNAL_BENCH is set.
func analyzeGraph(analyzers []*analysis.Analyzer, pkgs []*packages.Package) (*checker.Graph, error) {
	if Bench == (BenchOptions{}) {
		return checker.Analyze(analyzers, pkgs, nil)
	}
	if Bench.floor {
		analyzers = []*analysis.Analyzer{floorAnalyzer}
	}
	loaded := time.Now()
	graph, err := checker.Analyze(analyzers, pkgs, &checker.Options{Sequential: Bench.seq})
	analyzed := time.Now()
	if benchCPUProfile != nil {
		pprof.StopCPUProfile()
		benchCPUProfile.Close()
		benchCPUProfile = nil
	}
	if Bench.memprofile != "" {
		if f, err := os.Create(Bench.memprofile); err == nil {
			runtime.GC()
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
	}
	if Bench.times != "" && graph != nil {
		writeBenchTimes(graph, len(pkgs), loaded.Sub(benchStart), analyzed.Sub(loaded))
	}
	return graph, err
}

// benchTimes is the JSON written by times=FILE.
type benchTimes struct {
	Packages   int                     `json:"packages"`
	LoadNS     int64                   `json:"load_ns"`    // process start to loaded and type-checked
	AnalyzeNS  int64                   `json:"analyze_ns"` // checker.Analyze, wall
	Sequential bool                    `json:"sequential"`
	Analyzers  map[string]benchAnalyze `json:"analyzers"`
}

type benchAnalyze struct {
	NS      int64 `json:"ns"`      // sum of Action.Duration
	Actions int   `json:"actions"` // packages it ran on
}

func writeBenchTimes(graph *checker.Graph, pkgs int, load, analyze time.Duration) {
	t := benchTimes{Packages: pkgs, LoadNS: int64(load), AnalyzeNS: int64(analyze), Sequential: Bench.seq, Analyzers: map[string]benchAnalyze{}}
	for act := range graph.All() {
		a := t.Analyzers[act.Analyzer.Name]
		a.NS += int64(act.Duration)
		a.Actions++
		t.Analyzers[act.Analyzer.Name] = a
	}
	data, err := json.Marshal(t)
	if err == nil {
		err = os.WriteFile(Bench.times, data, 0o666)
	}
	if err != nil {
		os.Stderr.WriteString("lockvet: " + benchEnv + ": " + err.Error() + "\n")
	}
}
