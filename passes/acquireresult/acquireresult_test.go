package acquireresult_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/acquireresult"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
)

func TestAcquireResult(t *testing.T) {
	t.Parallel()
	analysistest.RunWithSuggestedFixes(t, lvtest.TestData(t), acquireresult.Analyzer, "./acquireresult/...")
}

func TestFixedCodeIsClean(t *testing.T) {
	t.Parallel()
	lvtest.FixedIsClean(t, lvtest.TestData(t), acquireresult.Analyzer, "./acquireresult/...")
}

// Where a helper is both declared and inferred, the declaration wins and
// the findings are the same: the inferred helpers' testdata, run with
// its helpers declared, expects exactly what it expects without.
func TestDeclaredAndInferredAgree(t *testing.T) {
	t.Parallel()
	var ws []lvconfig.Wrapper
	for _, d := range []struct {
		kind lvconfig.WrapperKind
		spec string
	}{
		{lvconfig.AcquireFunc, "lockvet.test/acquireresult/inferred/v9.Lock:key=1"},
		{lvconfig.ReleaseFunc, "lockvet.test/acquireresult/inferred/v9.Unlock:key=1"},
		{lvconfig.AcquireFunc, "(*lockvet.test/acquireresult/inferred/v9.Store).TryLock:key=1,ttl=2"},
		{lvconfig.AcquireFunc, "lockvet.test/acquireresult/inferred/rueidis.TryLock:key=2"},
	} {
		w, err := lvconfig.ParseWrappers(d.kind, d.spec)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w...)
	}
	cfg := &lvconfig.Config{Wrappers: ws}
	analysistest.Run(t, lvtest.TestData(t), acquireresult.New(redisops.New(cfg), cfg), "./acquireresult/inferred/v9", "./acquireresult/inferred/rueidis")
}
