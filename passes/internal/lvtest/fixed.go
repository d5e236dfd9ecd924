package lvtest

import (
	"github.com/lockvet/lockvet/internal/factgraph"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// FixedIsClean checks what analysistest's golden files cannot: that the
// fixed code (every x.go.golden under dir, laid over its x.go) type-checks,
// and that running a on it again offers no further fix, i.e. every site a
// fix touched is now silent and only report-only findings remain.
func FixedIsClean(t *testing.T, dir string, a *analysis.Analyzer, patterns ...string) {
	t.Helper()
	overlay := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go.golden") {
			return err
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		overlay[strings.TrimSuffix(path, ".golden")] = content
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(overlay) == 0 {
		t.Fatalf("no .go.golden files under %s", dir)
	}
	cfg := &packages.Config{
		Mode:    packages.LoadAllSyntax | packages.NeedModule,
		Dir:     dir,
		Env:     append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod"),
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("fixed code (golden files) does not type-check")
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
			if len(d.SuggestedFixes) > 0 {
				t.Errorf("%s: after the fixes, still a fixable finding: %s", act.Package.Fset.Position(d.Pos), d.Message)
			}
		}
	}
}
