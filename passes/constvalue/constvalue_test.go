package constvalue_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/constvalue"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
)

func TestConstValue(t *testing.T) {
	analysistest.Run(t, lvtest.TestData(t), constvalue.Analyzer, "./constvalue/...")
}
