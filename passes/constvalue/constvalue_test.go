package constvalue_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/constvalue"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
)

func TestConstValue(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), constvalue.Analyzer, "./constvalue/...")
}

// The fixed code builds, and LV204 offers no further fix on it.
func TestFixedCodeIsClean(t *testing.T) {
	lvtest.FixedIsClean(t, lvtest.TestData(t), constvalue.Analyzer, "./constvalue/...")
}
