// Package driver is the lockvet command's driver: it loads the packages
// that command-line patterns name (load.go: syntax for those packages,
// export data for their dependencies, and main-module packages that hold
// lock helpers for their facts), runs lockvet's analyzers on them with
// x/tools' checker, guarding each against a panic, and collects the
// findings, the findings that directives suppressed and the packages
// that failed into a findings.Result. The configuration flags that the
// command and go vet's tool share (config.go) and the hooks of the
// benchmark harness (bench.go) are here too.
package driver

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/findings"
	"github.com/lockvet/lockvet/internal/lvconfig"
)

// Exit statuses of lockvet's commands.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // findings
	ExitError    = 2 // errors: a package that does not load, a bad flag, …
)

// LoadError is a failure of the go command to load the packages at all:
// Msg is its own reason (the module it could not get, and why).
type LoadError struct {
	Patterns []string
	Msg      string
}

func (e *LoadError) Error() string { return e.Msg }

// Analyze loads patterns in dir and runs analyzers on them. lock tells the
// packages whose calls can be lock operations (analyzer.LockPackages). It
// fails, with a *LoadError, only when nothing could be loaded; broken
// packages are listed in the result's Errors and the others are still
// analyzed.
//
// module, when given, is the analyzers' view of the whole module
// (analyzer.Config.Module): it gets the loaded packages before analysis.
func Analyze(dir string, patterns []string, tests bool, analyzers []*analysis.Analyzer, lock func(string) bool, module ...*lvconfig.Module) (*findings.Result, error) {
	l, err := Load(dir, patterns, tests, lock)
	if err != nil {
		return nil, &LoadError{Patterns: patterns, Msg: goCommandReason(err)}
	}
	if len(l.All) == 0 {
		return nil, &LoadError{Patterns: patterns, Msg: fmt.Sprintf("%s matched no packages", strings.Join(patterns, " "))}
	}
	for _, m := range module {
		if m != nil {
			l.SetModule(m, dir, tests)
		}
	}
	return l.Analyze(dir, analyzers)
}

// Analyze runs analyzers on the loaded packages (see the function
// Analyze); dir is where file names in error lines are relative to.
func (l *Loaded) Analyze(dir string, analyzers []*analysis.Analyzer) (*findings.Result, error) {
	res := &findings.Result{ActionErrs: map[string]map[string]string{}}
	testOnly := brokenByTests(l.All)
	pkgs := l.Roots
	brokenRoots := packageErrors(dir, pkgs, res)
	for _, path := range testOnly {
		res.Errors = append(res.Errors, fmt.Sprintf("hint: %s does not compile with its test files; its other files were analyzed, and -test=false leaves test files out", path))
	}
	res.Packages = len(pkgs)
	broken := map[*packages.Package]string{} // by linked copy
	for i, p := range pkgs {
		if msg, ok := brokenRoots[p]; ok {
			res.Broken++
			broken[l.Linked[i]] = msg
		}
	}

	graph, err := analyzeGraph(analyzers, l.Linked)
	if err != nil {
		return nil, err
	}
	type key struct {
		posn, end token.Position
		rule, msg string
	}
	seen := map[key]bool{}
	module := l.module()
	for _, act := range graph.Roots {
		if act.Err != nil {
			msg := act.Err.Error()
			if first, ok := broken[act.Package]; ok {
				msg = first // "analysis skipped due to errors in package"
			} else {
				res.Errors = append(res.Errors, fmt.Sprintf("%s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err))
			}
			m := res.ActionErrs[act.Package.ID]
			if m == nil {
				m = map[string]string{}
				res.ActionErrs[act.Package.ID] = m
			}
			m[act.Analyzer.Name] = msg
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			f := &findings.Finding{Pkg: act.Package, Analyzer: act.Analyzer, Diag: d, Posn: fset.Position(d.Pos), Module: module}
			k := key{f.Posn, fset.Position(d.End), f.Rule(), d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			res.Findings = append(res.Findings, f)
		}
		for _, f := range suppressed(act) {
			if k := (key{f.Posn, fset.Position(f.Diag.End), f.Rule(), f.Diag.Message}); !seen[k] {
				seen[k] = true
				res.Suppressed = append(res.Suppressed, f)
			}
		}
	}
	slices.SortStableFunc(res.Suppressed, findings.Compare)
	slices.SortStableFunc(res.Findings, findings.Compare)
	return res, nil
}

// suppressed are the findings the in-source directives of one root
// action suppressed.
func suppressed(act *checker.Action) []*findings.Finding {
	var out []*findings.Finding
	for _, sp := range analyzer.Suppressions(act.Result) {
		out = append(out, &findings.Finding{
			Pkg:      act.Package,
			Analyzer: act.Analyzer,
			Diag:     sp.Diagnostic,
			Posn:     act.Package.Fset.Position(sp.Diagnostic.Pos),
			Reason:   sp.Reason,
		})
	}
	return out
}

// goCommandReason returns the go command's own message from a
// go/packages load error ("err: exit status 1: stderr: go: …"): what go
// build or go vet would print.
func goCommandReason(err error) string {
	msg := err.Error()
	if _, stderr, ok := strings.Cut(msg, "stderr: "); ok && strings.TrimSpace(stderr) != "" {
		msg = stderr
	}
	return strings.TrimRight(msg, "\n ")
}
