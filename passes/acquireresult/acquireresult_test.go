package acquireresult_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/acquireresult"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
)

func TestAcquireResult(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), acquireresult.Analyzer, "./acquireresult/...")
}

func TestFixedCodeIsClean(t *testing.T) {
	lvtest.FixedIsClean(t, lvtest.TestData(t), acquireresult.Analyzer, "./acquireresult/...")
}
