package setnxexpire_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/setnxexpire"
)

func TestSetNXExpire(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), setnxexpire.Analyzer, "./setnxexpire/...")
}

func TestFixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsClean(t, lvtest.TestData(t), setnxexpire.Analyzer, "./setnxexpire/...")
}
