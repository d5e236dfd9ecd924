package lockid_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
)

// dump reports, for every delete and expire, why its key is a lock key.
var dump = &analysis.Analyzer{
	Name:     "dump",
	Doc:      "dump: report lock evidence for deletes and expires",
	Requires: []*analysis.Analyzer{redisops.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[redisops.Analyzer].(*redisops.Result)
		locks := lockid.New(pass, res)
		for _, op := range res.Ops {
			if op.Kind != redisops.Delete && op.Kind != redisops.Expire {
				continue
			}
			if lk := locks.Of(op, op.Key()); lk != nil {
				pass.Reportf(op.Call.Pos(), "lock key: %s", [...]string{"", "same function", "same shape", "via helper", "counterpart"}[lk.Evidence])
			}
		}
		return nil, nil
	},
}

func TestEvidence(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, lvtest.TestData(t), dump, "./lockid/...")
}
