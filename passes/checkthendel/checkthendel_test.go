package checkthendel_test

import (
	"path/filepath"
	"testing"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/onceload"
	"github.com/lockvet/lockvet/passes/checkthendel"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
)

// TestCheckThenDel: the check's cases and those configured for Redis 8.4
// (redis84), with their golden files, over one load of both trees
// (onceload).
func TestCheckThenDel(t *testing.T) {
	t.Parallel()
	onceload.RunWithSuggestedFixes(t, lvtest.TestData(t),
		onceload.Case{Analyzer: checkthendel.Analyzer, Patterns: []string{"./checkthendel/..."}},
		onceload.Case{Analyzer: redis84, Patterns: []string{"./redis84/checkthendel/..."}})
}

func TestFixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsClean(t, lvtest.TestData(t), checkthendel.Analyzer, "./checkthendel/...")
}

// Configured for Redis 8.4, DelExArgs IFEQ is the first fix where the
// client has it, and the script the second.
var redis84 = checkthendel.New(redisops.Analyzer, &lvconfig.Config{RedisVersion: "8.4"})

func TestRedis84FixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsCleanPerFix(t, filepath.Join(lvtest.TestData(t), "redis84", "checkthendel"), redis84, "./...")
}
