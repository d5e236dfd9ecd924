package outlive_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/outlive"
)

func TestOutlive(t *testing.T) {
	analysistest.Run(t, lvtest.TestData(t), outlive.Analyzer, "./outlive/...")
}
