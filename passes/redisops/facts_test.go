package redisops_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/internal/onceload"
	"github.com/lockvet/lockvet/passes/acquireresult"
	"github.com/lockvet/lockvet/passes/checkthendel"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/outlive"
	"github.com/lockvet/lockvet/passes/redisops"
	"github.com/lockvet/lockvet/passes/ttlunit"
	"github.com/lockvet/lockvet/passes/unsafeunlock"
)

// TestFacts: a helper package's lock helpers reach their callers in two
// other packages as facts, for go-redis v9, redigo, rueidis and
// gomemcache: the helpers carry the facts the testdata expects (and
// nothing else does: a cache read, an unexported function), and the
// checks report at the call
// sites as for declared wrappers: a dropped bool (LV105), a bare DEL
// through a helper its own package does not pair with the acquire
// (LV201, naming the helper and its Redis call); a release its package
// pairs is reported inside the helper, not at the call.
func TestFacts(t *testing.T) {
	t.Parallel()
	dir := lvtest.TestData(t)
	clients := []string{"v9", "redigo", "rueidis"}
	var helpers, orders, billings []string
	for _, c := range clients {
		helpers = append(helpers, "./"+filepath.ToSlash(filepath.Join("xpkg", c, "lock")))
		orders = append(orders, "./"+filepath.ToSlash(filepath.Join("xpkg", c, "order")))
		billings = append(billings, "./"+filepath.ToSlash(filepath.Join("xpkg", c, "billing")))
	}
	// gomemcache's helpers, and helpers that queue on a batch their
	// callers hand them (Summary.Queued).
	helpers = append(helpers, "./xpkg/memcache/lock", "./xpkg/queue/lock", "./xpkg/v9/ctor", "./xpkg/redigo/ctor")
	t.Run("facts", func(t *testing.T) {
		t.Parallel()
		analysistest.Run(t, dir, redisops.Analyzer, helpers...)
	})
	// The checks at the call sites, over one load of their packages
	// (onceload): the release (unsafeunlock), the outcome (acquireresult)
	// and a GET-compare-DEL release helper its package does not pair
	// (checkthendel: LV202 at the call that releases a lock, silent for a
	// one-time code and for another key, on every client).
	t.Run("callers", func(t *testing.T) {
		t.Parallel()
		onceload.Run(t, dir,
			onceload.Case{Analyzer: unsafeunlock.Analyzer, Patterns: append(orders, "./xpkg/memcache/order")},
			onceload.Case{Analyzer: acquireresult.Analyzer, Patterns: billings},
			// A scoped helper (WithLock): LV104 at the call; no LV105
			// (billing) nor LV106 (weekly).
			onceload.Case{Analyzer: ttlunit.Analyzer, Patterns: []string{"./xpkg/v9/jobs"}},
			onceload.Case{Analyzer: outlive.Analyzer, Patterns: []string{"./xpkg/v9/weekly"}},
			onceload.Case{Analyzer: checkthendel.Analyzer, Patterns: []string{"./xpkg/v9/settle", "./xpkg/redigo/settle", "./xpkg/rueidis/settle", "./xpkg/memcache/settle"}})
	})
}
