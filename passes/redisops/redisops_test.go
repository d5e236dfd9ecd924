package redisops_test

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
)

// dump reports every op redisops finds, in a normalized one-line form, so
// the testdata's `// want` comments pin the op model down.
var dump = &analysis.Analyzer{
	Name:     "dump",
	Doc:      "dump: report redisops operations",
	Requires: []*analysis.Analyzer{redisops.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[redisops.Analyzer].(*redisops.Result)
		for _, op := range res.Ops {
			pass.Reportf(op.Call.Pos(), "%s", describe(pass.Fset, op))
		}
		return nil, nil
	},
}

func describe(fset *token.FileSet, op *redisops.Op) string {
	text := func(e ast.Expr) string {
		if e == nil {
			return "-"
		}
		return fixes.Text(fset, e)
	}
	var keys []string
	for _, k := range op.Keys {
		keys = append(keys, text(k))
	}
	if op.KeysSpread {
		keys = append(keys, "...")
	}
	s := fmt.Sprintf("%s %s %s key=%s", op.Client, op.Kind, op.Method, strings.Join(keys, ","))
	if op.Value != nil {
		s += " value=" + text(op.Value)
	}
	if op.TTL != nil {
		s += fmt.Sprintf(" ttl=%s/%s", text(op.TTL), unit(op.TTLUnit))
	}
	if op.TTLTrunc != 0 {
		s += " trunc=" + op.TTLTrunc.String()
	}
	if op.NoTTL {
		s += " nottl"
	}
	if op.Kind == redisops.Script {
		s += fmt.Sprintf(" args=%d", len(op.Args))
		if op.ScriptSrc != "" {
			s += " src=" + strings.Fields(op.ScriptSrc)[0]
		}
	}
	switch op.Scope.Kind {
	case redisops.Tx:
		s += " scope=tx@" + text(op.Scope.Client)
	case redisops.Pipeline:
		s += " scope=pipeline@" + text(op.Scope.Client)
	}
	if op.Scope.InWatch {
		s += " watch"
	}
	return s
}

func unit(u redisops.Unit) string {
	return [...]string{"none", "duration", "seconds", "millis", "time"}[u]
}

func TestOps(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, lvtest.TestData(t), dump, "./redisops/...")
}
