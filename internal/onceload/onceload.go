// Package onceload runs several analyzers' analysistest cases over one
// load of a test module.
//
// analysistest.Run loads its packages with the standard library and every
// dependency type-checked from source: most of a check test's CPU time.
// Cases that load the same dependencies (the same client modules) one
// analysistest.Run after another pay for that once each; Run here pays
// once for all of them. It runs analysistest.Run on one analyzer that
// requires the cases' analyzers and reports, in each package, the
// diagnostics of the case whose directory holds the package: what
// analysistest.Run(t, dir, c.Analyzer, c.Patterns...) would check there.
//
// The cases' analyzers must not export facts of their own that a test
// expects ("// want x:"fact""), and no other analyzer may require them:
// Run passes their diagnostics on through their results.
package onceload

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

// A Case is one analysistest.Run: an analyzer and the patterns of the
// packages it is checked on, relative to the test module's directory:
// "./x" (the package in x) or "./x/..." (every package under x).
type Case struct {
	Analyzer *analysis.Analyzer
	Patterns []string
}

// reported is a case analyzer's result as the wrapper returns it: the
// analyzer's own result and the diagnostics it reported.
type reported struct {
	result any
	diags  []analysis.Diagnostic
}

// Run loads the patterns of every case in dir once, runs the cases'
// analyzers on them, checks each package's "// want" comments against
// the diagnostics of its case's analyzer, and returns, for each case,
// the results of its packages (as analysistest.Run returns them, with
// the diagnostics of that case's analyzer).
func Run(t *testing.T, dir string, cases ...Case) [][]*analysistest.Result {
	t.Helper()
	return run(t, dir, analysistest.Run, cases)
}

// RunWithSuggestedFixes is Run, and checks the cases' suggested fixes
// against their golden files as analysistest.RunWithSuggestedFixes does.
func RunWithSuggestedFixes(t *testing.T, dir string, cases ...Case) [][]*analysistest.Result {
	t.Helper()
	return run(t, dir, analysistest.RunWithSuggestedFixes, cases)
}

func run(t *testing.T, dir string, runner func(analysistest.Testing, string, *analysis.Analyzer, ...string) []*analysistest.Result, cases []Case) [][]*analysistest.Result {
	t.Helper()
	wrapped := make([]*analysis.Analyzer, len(cases))
	var patterns []string
	for i, c := range cases {
		w := *c.Analyzer
		orig := c.Analyzer.Run
		w.Run = func(pass *analysis.Pass) (any, error) {
			var r reported
			report := pass.Report
			pass.Report = func(d analysis.Diagnostic) { r.diags = append(r.diags, d) }
			res, err := orig(pass)
			pass.Report = report
			r.result = res
			return r, err
		}
		w.ResultType = reflect.TypeFor[reported]()
		wrapped[i] = &w
		patterns = append(patterns, c.Patterns...)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	// caseOf is the case whose patterns hold the package of pass (the
	// patterns of two cases must not hold the same package); outside is
	// true for a package whose files are not in dir: the main package of
	// a test binary, generated in the build cache.
	caseOf := func(pass *analysis.Pass) (i int, outside bool) {
		if len(pass.Files) == 0 {
			return -1, false
		}
		pkgDir, err := filepath.Rel(abs, filepath.Dir(pass.Fset.Position(pass.Files[0].Package).Filename))
		if err != nil || pkgDir == ".." || strings.HasPrefix(pkgDir, ".."+string(filepath.Separator)) {
			return -1, true
		}
		pkgDir = filepath.ToSlash(pkgDir)
		for i, c := range cases {
			for _, p := range c.Patterns {
				p = strings.TrimPrefix(p, "./")
				if pkgDir == p {
					return i, false
				}
				if under, ok := strings.CutSuffix(p, "/..."); ok && (pkgDir == under || strings.HasPrefix(pkgDir, under+"/")) {
					return i, false
				}
			}
		}
		return -1, false
	}
	together := &analysis.Analyzer{
		Name:     "onceload",
		Doc:      "reports the diagnostics of each package's case analyzer",
		Requires: wrapped,
		Run: func(pass *analysis.Pass) (any, error) {
			i, outside := caseOf(pass)
			if outside {
				// Every case's run has this package: what any of their
				// analyzers reports there, analysistest would see.
				for _, w := range wrapped {
					for _, d := range pass.ResultOf[w].(reported).diags {
						pass.Report(d)
					}
				}
				return -1, nil
			}
			if i < 0 {
				return nil, fmt.Errorf("package %s is in no case's patterns", pass.Pkg.Path())
			}
			for _, d := range pass.ResultOf[wrapped[i]].(reported).diags {
				pass.Report(d)
			}
			return i, nil
		},
		ResultType: reflect.TypeFor[int](),
	}
	out := make([][]*analysistest.Result, len(cases))
	for _, r := range runner(t, dir, together, patterns...) {
		i, ok := r.Result.(int)
		if !ok || i < 0 {
			continue // the action failed (analysistest said why), or a test binary's main package
		}
		out[i] = append(out[i], r)
	}
	return out
}
