package acquireresult

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/redisops"
)

// An INCR lock (redisops' BusyCount) reads its outcome from the count:
// 1 is acquired, more is busy. A failed INCR returns 0 with the error
// set, so code that drops the error (n, _ := …) reads a failure as the
// count 0, and a comparison that answers for 0 as it does for 1 (n > 1
// is false for both: "not locked"; n <= 1 true for both: "acquired")
// takes a failure for the lock: the caller runs without it.

// count reports an INCR lock whose error is dropped and whose count is
// compared so that 0 reads as acquired.
func (c *checker) count(a *redisops.Op, out redisops.Outcome) {
	if out.Read != redisops.ReadValue {
		return
	}
	id, ok := ast.Unparen(out.Value).(*ast.Ident)
	if !ok {
		return
	}
	info := c.pass.TypesInfo
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || a.Func == nil {
		return
	}
	var cmp *ast.BinaryExpr
	ast.Inspect(a.Func.Body, func(n ast.Node) bool {
		if cmp != nil {
			return false
		}
		if lit, ok := n.(*ast.FuncLit); ok && lit != a.Func.Node {
			return false
		}
		b, ok := n.(*ast.BinaryExpr)
		if ok && zeroReadsAcquired(info, b, v) {
			cmp = b
		}
		return true
	})
	if cmp == nil {
		return
	}
	rel, ok := c.lock(a, out)
	if !ok {
		return
	}
	c.report(a, out, rel, nil, fmt.Sprintf("the error of %s is dropped: a failed %s reads as the count 0, and %s answers for 0 as for the lock taken, so the caller goes on without the lock; treat an error as busy",
		a.Method, a.Method, fixes.Text(c.pass.Fset, cmp)))
}

// zeroReadsAcquired reports whether b compares the variable v with an
// integer constant so that the count 0 and the count 1 (acquired) give the
// same answer, and a later count (2) another.
func zeroReadsAcquired(info *types.Info, b *ast.BinaryExpr, v *types.Var) bool {
	op, other := b.Op, b.Y
	if id, ok := ast.Unparen(b.Y).(*ast.Ident); ok && info.Uses[id] == v {
		other = b.X
		switch op {
		case token.LSS:
			op = token.GTR
		case token.GTR:
			op = token.LSS
		case token.LEQ:
			op = token.GEQ
		case token.GEQ:
			op = token.LEQ
		}
	} else if id, ok := ast.Unparen(b.X).(*ast.Ident); !ok || info.Uses[id] != v {
		return false
	}
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ:
	default:
		return false
	}
	tv, ok := info.Types[other]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return false
	}
	at := func(n int64) bool { return constant.Compare(constant.MakeInt64(n), op, tv.Value) }
	return at(0) == at(1) && at(1) != at(2)
}
