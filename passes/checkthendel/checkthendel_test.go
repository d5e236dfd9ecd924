package checkthendel_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/checkthendel"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
)

func TestCheckThenDel(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), checkthendel.Analyzer, "./checkthendel/...")
}

func TestFixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsClean(t, lvtest.TestData(t), checkthendel.Analyzer, "./checkthendel/...")
}

// Configured for Redis 8.4, DelExArgs IFEQ is the first fix where the
// client has it, and the script the second.
var redis84 = checkthendel.New(redisops.Analyzer, &lvconfig.Config{RedisVersion: "8.4"})

func TestRedis84(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), redis84, "./redis84/checkthendel/...")
}

func TestRedis84FixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsCleanPerFix(t, filepath.Join(lvtest.TestData(t), "redis84", "checkthendel"), redis84, "./...")
}
