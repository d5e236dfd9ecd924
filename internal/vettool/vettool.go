// Package vettool is lockvet as go vet's (and go fix's) tool: go vet runs
// the lockvet binary once to learn its identity (-V=full) and flags
// (-flags), then once per package with a JSON configuration file, and
// Main hands each such run to x/tools' unitchecker with lockvet's
// analyzers. Before it does, vetdeps.go spares the packages lockvet has
// nothing to say about a type-check: their types come from the
// compiler's export data, which go vet names in the configuration.
package vettool

import (
	"encoding/gob"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/driver"
)

// IsInvocation reports whether the go command runs lockvet as a vet
// tool (go vet -vettool, go fix -fixtool). It asks "-V=full" (the tool's
// identity, for its cache) and "-flags" (which flags to forward), then
// runs the tool once per package with the path of a JSON *.cfg file.
func IsInvocation(args []string) bool {
	for _, a := range args {
		switch a {
		case "-V=full", "--V=full", "-flags", "--flags":
			return true
		}
	}
	return len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg")
}

// Main hands the invocation to unitchecker with lockvet's analyzers.
// go vet forwards the configuration flags (-checks, -redis-version, …)
// as the user wrote them; they are read here first, because they decide
// which analyzers unitchecker gets. unitchecker then parses the whole
// command line, so the same flags are declared on flag.CommandLine as
// well, which also makes -flags list them for go vet.
func Main(args []string) {
	if file := vetConfigFile(args); driver.Bench.VetLog != "" && file != "" {
		if f, err := os.OpenFile(driver.Bench.VetLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintln(f, file)
			f.Close()
		}
	}
	var cf driver.ConfigFlags
	pre := flag.NewFlagSet("lockvet", flag.ContinueOnError)
	pre.SetOutput(io.Discard)
	cf.Register(pre)
	if err := pre.Parse(pickFlags(pre, args)); err != nil {
		fmt.Fprintf(os.Stderr, "lockvet: %v\n", err)
		os.Exit(driver.ExitError)
	}
	cfg := (*vetConfig)(nil)
	if file := vetConfigFile(args); file != "" {
		cfg = readVetConfig(file)
	}
	if cfg != nil && !driver.Bench.VetDepsFull {
		// A package lockvet has nothing to say about, and the types of
		// the imports for unitchecker (vetdeps.go).
		if !cfg.factsWanted() {
			if err := vetNothing(cfg, false); err != nil {
				os.Exit(1) // as unitchecker on a dependency: go vet ignores it
			}
			os.Exit(0)
		}
		imps, err := readVetImports(cfg)
		if err != nil {
			fmt.Fprintf(os.Stderr, "lockvet: %s: %v\n", cfg.ImportPath, err)
			os.Exit(1)
		}
		lockPkg, err := analyzer.LockPackages(cf.Config())
		if err == nil && !imps.facts && cfg.FixArchive == "" && !hasFlag(args, "fix") && !hasFlag(args, "diff") {
			mentions, err := imps.mentions(cfg, lockPkg)
			if err != nil {
				fmt.Fprintf(os.Stderr, "lockvet: %s: %v\n", cfg.ImportPath, err)
				os.Exit(1)
			}
			if !mentions {
				if err := vetNothing(cfg, hasFlag(args, "json")); err != nil {
					fmt.Fprintf(os.Stderr, "lockvet: %v\n", err)
					os.Exit(1)
				}
				os.Exit(0)
			}
		}
		if err := imps.readTypes(cfg); err != nil {
			fmt.Fprintf(os.Stderr, "lockvet: %s: %v\n", cfg.ImportPath, err)
			os.Exit(1)
		}
		file, err := withImportTypes(cfg, imps)
		if err != nil {
			fmt.Fprintf(os.Stderr, "lockvet: %s: %v\n", cfg.ImportPath, err)
			os.Exit(1)
		}
		os.Args[len(os.Args)-1] = file
	}
	analyzers, err := analyzer.Analyzers(cf.Config())
	if err != nil {
		fmt.Fprintf(os.Stderr, "lockvet: %v\n", err)
		os.Exit(driver.ExitError)
	}
	if cfg != nil && !cfg.factsWanted() {
		dropFacts(analyzers)
	}
	// go vet runs its tool with -json and prints the text itself, with
	// neither the analyzer name nor the category: the ID goes into the
	// message, under go vet -json too.
	for i, a := range analyzers {
		analyzers[i] = idFirst(a)
	}
	new(driver.ConfigFlags).Register(flag.CommandLine)
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(vetGCPercent)
	}
	unitchecker.Main(analyzers...) // does not return
}

// vetGCPercent is the GOGC value of a run of unitchecker, unless GOGC
// or GOMEMLIMIT is set. Its heap is the package's syntax and types,
// nearly all live until the process exits, so the collector mostly
// re-marks the same objects: on go-redis v9's largest test package
// (50,000 lines) GOGC=100 spent about a quarter of the run's CPU in it,
// and 200 cut the run's CPU by a quarter for 10% more peak RSS
// (docs/performance.md).
const vetGCPercent = 200

// vetConfigFile is the vet configuration file go vet names last, or "".
func vetConfigFile(args []string) string {
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		return args[len(args)-1]
	}
	return ""
}

// hasFlag reports whether args set the boolean flag name (-name,
// -name=true).
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		n, v, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && n == name && v != "false" {
			return true
		}
	}
	return false
}

// idFirst returns a copy of a whose messages start with the check ID
// ("LV101: …"), as the lockvet command's lines do: go vet's text output
// shows neither the analyzer nor the category, and the ID is what
// -explain and an ignore directive take.
func idFirst(a *analysis.Analyzer) *analysis.Analyzer {
	return analyzer.Rewriting(a, func(d *analysis.Diagnostic) {
		if d.Category != "" {
			d.Message = d.Category + ": " + d.Message
		}
	})
}

// dropFacts takes the fact types off lockvet's analyzers, so that
// unitchecker runs none of them on a package analyzed only for facts. The
// fact type stays registered with gob, in case an imported package's
// facts hold one.
func dropFacts(analyzers []*analysis.Analyzer) {
	driver.EachAnalyzer(analyzers, func(a *analysis.Analyzer) {
		for _, f := range a.FactTypes {
			gob.Register(f)
		}
		a.FactTypes = nil
	})
}

// pickFlags returns the arguments of args that set flags defined in fs,
// as "-name=value" or "-name value".
func pickFlags(fs *flag.FlagSet, args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		out = append(out, a)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
	}
	return out
}
