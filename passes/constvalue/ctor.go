package constvalue

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/tokenfix"
	"github.com/lockvet/lockvet/passes/redisops"
)

// A lock type's constructor that keeps its caller's argument as the
// lock's value (NewLocker(key, "lockValue", ttl, rdb); redisops.Ctor says
// which argument, what the type does with it, and how it checks the
// owner) makes every lock built with a shared value share it. The
// finding is at the argument, in the caller's package, and says how the
// type uses the value: the acquire decides by comparing with it (every
// caller with that value holds the lock at once), a release compares with
// it (it matches other holders' locks), or the release checks nothing.
//
// Not reported: calls in _test.go files (a test of the lock type), and
// calls whose lock the caller's function changes the value field of
// after constructing it. The fix passes a fresh token (rand.Text(), or
// the newLockToken helper before Go 1.24) instead of the argument; there
// is none for a lock made at package level or kept in a field, a
// composite literal or a package-level variable (its users would share
// one token), for a value parameter that takes no string, and when the
// argument is the last use of a local variable.

// reportCtors reports the calls of lock types' constructors whose value
// argument every holder shares.
func (c *checker) reportCtors() {
	for _, cc := range c.res.CtorCalls {
		if c.inTestPos(cc.Call.Pos()) {
			continue
		}
		why := c.classify(cc.Value, 0)
		if cc.Key != nil && sameExpr(c.pass.TypesInfo, cc.Key, cc.Value) {
			why = theKey
		}
		if why == unique || c.valueChanged(cc) {
			continue
		}
		c.reportCtor(cc, why)
	}
}

func (c *checker) inTestPos(pos token.Pos) bool { return astx.InTest(c.pass.Fset, pos) }

// sameExpr reports whether a and b are the same variable, or the same
// selection of fields from one.
func sameExpr(info *types.Info, a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	switch x := a.(type) {
	case *ast.Ident:
		y, ok := b.(*ast.Ident)
		v, isVar := info.Uses[x].(*types.Var)
		return ok && isVar && info.Uses[y] == v
	case *ast.SelectorExpr:
		y, ok := b.(*ast.SelectorExpr)
		return ok && x.Sel.Name == y.Sel.Name && astx.FieldOf(info, x) != nil && sameExpr(info, x.X, y.X)
	}
	return false
}

// valueChanged reports whether the function around cc assigns the value
// field of a value of the lock type (l.Value = token after NewLocker):
// the constructor's argument is then not what the lock writes.
func (c *checker) valueChanged(cc *redisops.CtorCall) bool {
	if cc.Func == nil {
		return false
	}
	info := c.pass.TypesInfo
	changed := false
	ast.Inspect(cc.Func, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || changed {
			return !changed
		}
		for _, l := range as.Lhs {
			sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != cc.Ctor.Field {
				continue
			}
			if f := astx.FieldOf(info, sel); f != nil && typeName(info.TypeOf(sel.X)) == cc.Ctor.Type {
				changed = true
			}
		}
		return true
	})
	return changed
}

// typeName is the name of the named type t, or of the one t points to.
func typeName(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

func (c *checker) reportCtor(cc *redisops.CtorCall, why shared) {
	k := cc.Ctor
	value := c.sharedText(why, cc.Value)
	if why == theKey {
		value = fmt.Sprintf("the lock's own key (%s)", fixes.Text(c.pass.Fset, cc.Value))
	}
	var use string
	switch k.Owner {
	case redisops.OwnerAcquire:
		use = fmt.Sprintf(" and %s compares with what the key holds to decide it holds the lock (%s), so every caller with this value holds the lock at once", k.Compare, k.CompareAt)
		if k.Compare == k.Acquire {
			use = fmt.Sprintf(" and compares with what the key holds to decide it holds the lock (%s), so every caller with this value holds the lock at once", k.CompareAt)
		}
	case redisops.OwnerRelease:
		use = fmt.Sprintf(" and %s's owner check compares with what the key holds (%s), so it matches other holders' locks", k.Compare, k.CompareAt)
	default:
		use = fmt.Sprintf(" and %s releases, so no owner check can tell holders apart", k.Release)
	}
	d := analysis.Diagnostic{
		Pos: cc.Value.Pos(),
		End: cc.Value.End(),
		Message: fmt.Sprintf("the lock value passed to %s is %s: %s keeps it in %s.%s, which %s writes with %s (%s)%s; pass a random token per lock",
			k.Name, value, k.Name, k.Type, k.Field, k.Acquire, k.Method, k.Where, use),
	}
	if fix, why := c.ctorFix(cc); why == "" {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else {
		d.Message += " (no fix: " + why + ")"
	}
	c.r.Report(d)
}

// ctorFix replaces cc's value argument with a fresh token, or says why
// it does not.
func (c *checker) ctorFix(cc *redisops.CtorCall) (analysis.SuggestedFix, string) {
	info := c.pass.TypesInfo
	if cc.Func == nil {
		return analysis.SuggestedFix{}, "the lock is made once, at package level"
	}
	if kept := c.keptIn(cc); kept != "" {
		return analysis.SuggestedFix{}, "the lock is kept in " + kept + ", which its users share"
	}
	sig, ok := info.TypeOf(cc.Call.Fun).(*types.Signature)
	if !ok || cc.Ctor.Value >= sig.Params().Len() {
		return analysis.SuggestedFix{}, "the call's signature is unknown"
	}
	pt := sig.Params().At(cc.Ctor.Value).Type()
	text := ""
	if types.AssignableTo(types.Typ[types.String], pt) {
		text = "TOKEN"
	} else if s, ok := pt.Underlying().(*types.Slice); ok {
		if b, ok := s.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			text = "[]byte(TOKEN)"
		}
	}
	if text == "" {
		return analysis.SuggestedFix{}, fmt.Sprintf("the value parameter is a %s", types.TypeString(pt, types.RelativeTo(c.pass.Pkg)))
	}
	var body ast.Node
	for cur := range cc.Cursor.Enclosing((*ast.FuncDecl)(nil)) {
		body = cur.Node().(*ast.FuncDecl).Body
	}
	if body == nil {
		body = cc.Func
	}
	if fixes.Orphans(c.res, info, body, cc.Value.Pos(), cc.Value.End()) {
		return analysis.SuggestedFix{}, "the argument is the last use of a variable"
	}
	fix, ok := tokenfix.Arg(c.pass, c.res, cc.Value, text)
	if !ok {
		return fix, "no name is free for the token's package"
	}
	return fix, ""
}

// keptIn is where the lock cc makes is stored beyond its function: a
// field, a package-level variable or a composite literal (its source
// text), or "".
func (c *checker) keptIn(cc *redisops.CtorCall) string {
	info := c.pass.TypesInfo
	switch p := cc.Cursor.Parent().Node().(type) {
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if ast.Unparen(r) != cc.Call || len(p.Lhs) != len(p.Rhs) {
				continue
			}
			l := ast.Unparen(p.Lhs[i])
			switch l := l.(type) {
			case *ast.Ident:
				if v, ok := info.ObjectOf(l).(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
					return l.Name
				}
			default:
				return fixes.Text(c.pass.Fset, l)
			}
		}
	case *ast.KeyValueExpr, *ast.CompositeLit:
		return "a composite literal"
	}
	return ""
}
