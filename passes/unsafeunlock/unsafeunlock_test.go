package unsafeunlock_test

import (
	"go/types"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/onceload"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
	"github.com/lockvet/lockvet/passes/unsafeunlock"
)

// TestUnsafeUnlock: the check's cases, those configured for Redis 8.4
// (redis84) and valkey-go's (TestValkey), with their golden files, over
// one load of the three trees (onceload): each loaded on its own, the
// standard library and the client modules were type-checked three times.
func TestUnsafeUnlock(t *testing.T) {
	t.Parallel()
	onceload.RunWithSuggestedFixes(t, lvtest.TestData(t),
		onceload.Case{Analyzer: unsafeunlock.Analyzer, Patterns: []string{"./unsafeunlock/...", "./valkey/unsafeunlock/..."}},
		onceload.Case{Analyzer: redis84, Patterns: []string{"./redis84/unsafeunlock/..."}})
}

func TestFixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsClean(t, lvtest.TestData(t), unsafeunlock.Analyzer, "./unsafeunlock/...")
}

// Configured for Redis 8.4, DelExArgs IFEQ is the first fix where the
// client has it, and the script the second.
var redis84 = unsafeunlock.New(redisops.Analyzer, &lvconfig.Config{RedisVersion: "8.4"})

func TestRedis84FixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsCleanPerFix(t, filepath.Join(lvtest.TestData(t), "redis84", "unsafeunlock"), redis84, "./...")
}

// valkey-go's native client: rueidis' adapter under another module path
// (redisops/valkey.go). Its testdata is a tree of its own, as it has
// cases for LV201 only; docs/clients.md counts the per-check trees.
// TestUnsafeUnlock checks its findings and golden files.
func TestValkey(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsClean(t, lvtest.TestData(t), unsafeunlock.Analyzer, "./valkey/unsafeunlock/...")
}

// Summaries of imported functions, given through redisops' hook as facts
// would give them: a caller in another package is reported at its call of
// the release helper, naming the helper and where its DEL is (the helper's
// own package cannot pair Take and Drop: no lock names).
func TestImportedSummaries(t *testing.T) {
	t.Parallel()
	sums := map[string]*redisops.Summary{
		"lockvet.test/imported/cache.Take": {Func: "lockvet.test/imported/cache.Take", Name: "Take", Kind: lvconfig.AcquireFunc,
			Key: 1, KeyForm: keyid.ParamForm(1), Value: -1, ValueConst: `"1"`, TTL: -1, TTLConst: "10 * time.Second", Returns: true,
			Where: "cache/cache.go:14", Method: "SetNX"},
		"lockvet.test/imported/cache.Drop": {Func: "lockvet.test/imported/cache.Drop", Name: "Drop", Kind: lvconfig.ReleaseFunc, Form: redisops.Bare,
			Key: 1, KeyForm: keyid.ParamForm(1), Value: -1, TTL: -1, Where: "cache/cache.go:18", Method: "Del"},
	}
	ops := redisops.NewImporting(nil,
		func(_ *analysis.Pass, fn *types.Func) *redisops.Summary { return sums[fn.FullName()] },
		func(*analysis.Pass) map[string]bool { return map[string]bool{"Take": true, "Drop": true} })
	analysistest.Run(t, lvtest.TestData(t), unsafeunlock.New(ops, nil), "./imported/order")
}

// A module whose path has no dot (module shopsvc) is not the standard
// library: its key function pairs the release with the acquire.
func TestDotlessModule(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(lvtest.TestData(t), "dotless")
	analysistest.RunWithSuggestedFixes(t, dir, unsafeunlock.Analyzer, "./...")
	lvtest.FixedIsClean(t, dir, unsafeunlock.Analyzer, "./...")
}
