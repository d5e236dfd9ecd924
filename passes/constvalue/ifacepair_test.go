package constvalue_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/constvalue"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
)

// wholePackage is a module view in which each analyzed package is the
// whole module: what the lockvet command gives a module of one package.
func wholePackage() *lvconfig.Config {
	m := &lvconfig.Module{}
	m.Set(nil, func() ([]lvconfig.ModulePackage, bool, error) { return nil, true, nil })
	return &lvconfig.Config{Module: m}
}

// Helper pairs that implement an interface: with the module in view, the
// fix changes the interface, its implementations and its callers; it is
// withheld, and says why, where one of them cannot change exactly.
func TestIfacePair(t *testing.T) {
	t.Parallel()
	a := constvalue.New(redisops.Analyzer, wholePackage())
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), a, "./ifacepair/...")
	lvtest.FixedIsClean(t, lvtest.TestData(t), a, "./ifacepair/...")
}
