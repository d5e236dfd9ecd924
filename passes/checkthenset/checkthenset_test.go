package checkthenset_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/checkthenset"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
)

func TestCheckThenSet(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), checkthenset.Analyzer, "./checkthenset/...")
}

func TestFixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsClean(t, lvtest.TestData(t), checkthenset.Analyzer, "./checkthenset/...")
}
