package unsafeunlock_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
	"github.com/lockvet/lockvet/passes/unsafeunlock"
)

func TestUnsafeUnlock(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), unsafeunlock.Analyzer, "./unsafeunlock/...")
}

func TestFixedCodeIsClean(t *testing.T) {
	lvtest.FixedIsClean(t, lvtest.TestData(t), unsafeunlock.Analyzer, "./unsafeunlock/...")
}

// Configured for Redis 8.4, DelExArgs IFEQ is the first fix where the
// client has it, and the script the second.
var redis84 = unsafeunlock.New(redisops.Analyzer, &lvconfig.Config{RedisVersion: "8.4"})

func TestRedis84(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), redis84, "./redis84/unsafeunlock/...")
}

func TestRedis84FixedCodeIsClean(t *testing.T) {
	lvtest.FixedIsCleanPerFix(t, filepath.Join(lvtest.TestData(t), "redis84", "unsafeunlock"), redis84, "./...")
}

// valkey-go's native client: rueidis' adapter under another module path
// (redisops/valkey.go). Its testdata is a tree of its own, as it has
// cases for LV201 only; docs/clients.md counts the per-check trees.
func TestValkey(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), unsafeunlock.Analyzer, "./valkey/unsafeunlock/...")
	lvtest.FixedIsClean(t, lvtest.TestData(t), unsafeunlock.Analyzer, "./valkey/unsafeunlock/...")
}
