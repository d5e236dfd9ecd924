package noexpire_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/noexpire"
)

func TestNoExpire(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), noexpire.Analyzer, "./noexpire/...")
}
