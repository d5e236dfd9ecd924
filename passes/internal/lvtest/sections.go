package lvtest

import (
	"github.com/lockvet/lockvet/internal/factgraph"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"
)

// FixedIsCleanPerFix is FixedIsClean for goldens in analysistest's txtar
// form (one section per fix message, used when a diagnostic offers several
// fixes). For each fix message, the fixed code of that section, laid over
// the sources under dir (files without the section stay as they are), must
// type-check, and running a on it again must offer no fix with that
// message: every site a fix of that kind touched is now silent, while
// sites it could not fix may still offer fixes of another kind.
func FixedIsCleanPerFix(t *testing.T, dir string, a *analysis.Analyzer, patterns ...string) {
	t.Helper()
	sections := map[string]map[string][]byte{} // message → file → fixed text
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go.golden") {
			return err
		}
		ar, err := txtar.ParseFile(path)
		if err != nil {
			return err
		}
		for _, f := range ar.Files {
			if sections[f.Name] == nil {
				sections[f.Name] = map[string][]byte{}
			}
			sections[f.Name][strings.TrimSuffix(path, ".golden")] = f.Data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sections) == 0 {
		t.Fatalf("no .go.golden files in txtar form under %s", dir)
	}
	for _, msg := range slices.Sorted(maps.Keys(sections)) {
		cfg := &packages.Config{
			Mode:    packages.LoadAllSyntax | packages.NeedModule,
			Dir:     dir,
			Env:     append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod"),
			Overlay: sections[msg],
		}
		pkgs, err := packages.Load(cfg, patterns...)
		if err != nil {
			t.Fatal(err)
		}
		if packages.PrintErrors(pkgs) > 0 {
			t.Errorf("fixed code of %q does not type-check", msg)
			continue
		}
		g, err := checker.Analyze([]*analysis.Analyzer{a}, factgraph.LinkLoaded(pkgs, pkgs), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, act := range g.Roots {
			if act.Err != nil {
				t.Errorf("%s: %v", act, act.Err)
			}
			for _, d := range act.Diagnostics {
				for _, fix := range d.SuggestedFixes {
					if fix.Message == msg {
						t.Errorf("%s: after the fixes %q, still fixable that way: %s", act.Package.Fset.Position(d.Pos), msg, d.Message)
					}
				}
			}
		}
	}
}
