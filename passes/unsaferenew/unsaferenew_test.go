package unsaferenew_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/unsaferenew"
)

func TestUnsafeRenew(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), unsaferenew.Analyzer, "./unsaferenew/...")
}

func TestFixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsClean(t, lvtest.TestData(t), unsaferenew.Analyzer, "./unsaferenew/...")
}
