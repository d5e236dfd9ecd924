package acquireresult

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

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
	c.report(a, out, rel, c.countFix(a, out, v, cmp), fmt.Sprintf("the error of %s is dropped: a failed %s reads as the count 0, and %s answers for 0 as for the lock taken, so the caller goes on without the lock; treat an error as busy",
		a.Method, a.Method, fixes.Text(c.pass.Fset, cmp)))
}

// countFix makes an INCR lock read its error: `n, _ := …` binds it, and
// the comparison that decides answers on an error as it does for the
// count 2 (busy): `n > 1` becomes `err != nil || n > 1`, `n <= 1` becomes
// `err == nil && n <= 1`. It is offered only when that comparison is the
// count's only use, so that every decision goes through it.
func (c *checker) countFix(a *redisops.Op, out redisops.Outcome, v *types.Var, cmp *ast.BinaryExpr) *analysis.SuggestedFix {
	as, ok := out.Stmt.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 || !isBlank(as.Lhs[1]) {
		return nil
	}
	uses := c.facts(a).uses[v]
	if len(uses) != 1 {
		return nil
	}
	// The comparison's cursor: the use, out of its parentheses.
	cur := uses[0].Parent()
	for {
		if _, ok := cur.Node().(*ast.ParenExpr); !ok {
			break
		}
		cur = cur.Parent()
	}
	if cur.Node() != cmp {
		return nil
	}
	info := c.pass.TypesInfo
	name := c.freshName(as.Pos(), "err", "incrErr")
	if name == "" || fixes.LookupAt(c.pass, c.res.FileIndex(c.pass).At(cmp.Pos()), name, cmp.Pos()) != nil {
		return nil // shadowed where the comparison reads it
	}
	text := name + " == nil && "
	if compareAt(info, cmp, v, 2) {
		text = name + " != nil || "
	}
	open, closing := "", ""
	switch cur.Parent().Node().(type) {
	case *ast.BinaryExpr, *ast.UnaryExpr:
		open, closing = "(", ")"
	}
	return &analysis.SuggestedFix{
		Message: fmt.Sprintf("Treat an error of %s as busy", a.Method),
		TextEdits: []analysis.TextEdit{
			fixes.Replace(as.Lhs[1], name),
			{Pos: cmp.Pos(), End: cmp.Pos(), NewText: []byte(open + text)},
			{Pos: cmp.End(), End: cmp.End(), NewText: []byte(closing)},
		},
	}
}

// zeroReadsAcquired reports whether b compares the variable v with an
// integer constant so that the count 0 and the count 1 (acquired) give the
// same answer, and a later count (2) another.
func zeroReadsAcquired(info *types.Info, b *ast.BinaryExpr, v *types.Var) bool {
	switch b.Op {
	case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ:
	default:
		return false
	}
	_, other, ok := countCmp(info, b, v)
	if !ok {
		return false
	}
	if tv, ok := info.Types[other]; !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return false
	}
	return compareAt(info, b, v, 0) == compareAt(info, b, v, 1) && compareAt(info, b, v, 1) != compareAt(info, b, v, 2)
}

// countCmp reads b as v op other: op mirrored when v is on the right.
func countCmp(info *types.Info, b *ast.BinaryExpr, v *types.Var) (op token.Token, other ast.Expr, ok bool) {
	if id, isID := ast.Unparen(b.Y).(*ast.Ident); isID && info.Uses[id] == v {
		switch b.Op {
		case token.LSS:
			return token.GTR, b.X, true
		case token.GTR:
			return token.LSS, b.X, true
		case token.LEQ:
			return token.GEQ, b.X, true
		case token.GEQ:
			return token.LEQ, b.X, true
		}
		return b.Op, b.X, true
	}
	if id, isID := ast.Unparen(b.X).(*ast.Ident); isID && info.Uses[id] == v {
		return b.Op, b.Y, true
	}
	return 0, nil, false
}

// compareAt is the value of b, a comparison of v with an integer constant
// (zeroReadsAcquired), when v is n.
func compareAt(info *types.Info, b *ast.BinaryExpr, v *types.Var, n int64) bool {
	op, other, _ := countCmp(info, b, v)
	return constant.Compare(constant.MakeInt64(n), op, info.Types[other].Value)
}
