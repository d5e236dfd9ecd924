package lockid

import (
	"go/ast"

	"github.com/lockvet/lockvet/passes/redisops"
)

// Collects is collects (collect.go), for the plain scans of index_test.go.
func (l *Locks) Collects(a, op *redisops.Op, key ast.Expr) Evidence {
	return l.collects(a, op, key)
}
