package redisops

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
)

// TestIndexesAgree: on every function with operations in the checks'
// testdata, the indexed answers (Locate, the pruned Reachable, OpsOn) are
// those of a scan of the whole function.
func TestIndexesAgree(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("loads the whole testdata module")
	}
	var located, paired, sameKey int
	check := &analysis.Analyzer{
		Name:     "indexcheck",
		Doc:      "indexcheck: compare redisops' indexes with scans",
		Requires: []*analysis.Analyzer{Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[Analyzer].(*Result)
			for _, f := range res.Funcs {
				for _, a := range f.Ops {
					b, i := f.Locate(a.Call.Pos())
					if wb, wi := locate(f.CFG(), a.Call.Pos()); b != wb || i != wi {
						t.Errorf("%s: Locate = %v/%d, scan = %v/%d", pass.Fset.Position(a.Call.Pos()), b, i, wb, wi)
					}
					located++
					on := f.OpsOn(a.forms...)
					for _, o := range f.Ops {
						if got, want := f.Reachable(a.Call.Pos(), o.Call.Pos()), f.reachable(a.Call.Pos(), o.Call.Pos(), false); got != want {
							t.Errorf("%s → %s: Reachable = %v, scan = %v", pass.Fset.Position(a.Call.Pos()), pass.Fset.Position(o.Call.Pos()), got, want)
						}
						paired++
						if keyid.Same(a.KeyForm(), o.KeyForm()) {
							sameKey++
							if !slices.Contains(on, o) {
								t.Errorf("%s: OpsOn misses %s, on the same key", pass.Fset.Position(a.Call.Pos()), pass.Fset.Position(o.Call.Pos()))
							}
						}
					}
				}
			}
			return nil, nil
		},
	}
	pkgs := lvtest.Load(t, "./...")
	if _, err := checker.Analyze([]*analysis.Analyzer{check}, pkgs, &checker.Options{Sequential: true}); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d operations located, %d pairs reached, %d on the same key", located, paired, sameKey)
	if located < 500 || sameKey < 200 {
		t.Errorf("too few operations compared (%d, %d pairs on the same key): is the testdata loaded?", located, sameKey)
	}
}
