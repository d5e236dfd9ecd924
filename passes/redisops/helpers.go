package redisops

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Small syntax and type helpers every adapter uses.

func takesContext(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Params().Len() == 0 {
		return false
	}
	named, ok := types.Unalias(sig.Params().At(0).Type()).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "context" && named.Obj().Name() == "Context"
}

// recvNamed is the name of fn's receiver's named type, or "".
func recvNamed(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// variadic returns the arguments of a variadic tail; with a spread
// (f(xs...)) it returns nil.
func variadic(call *ast.CallExpr, tail []ast.Expr) []ast.Expr {
	if call.Ellipsis.IsValid() {
		return nil
	}
	return tail
}

// sliceElems returns the elements of a []string{…} literal; otherwise
// nil and spread=true.
func sliceElems(e ast.Expr) ([]ast.Expr, bool) {
	if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
		return lit.Elts, false
	}
	return nil, true
}

// setVariadicKeys sets op's keys from tail, the variadic keys of call:
// the arguments, or, spread (Del(ctx, keys...)), the slice.
func (o *Op) setVariadicKeys(call *ast.CallExpr, tail []ast.Expr) {
	o.Keys, o.KeysSpread = variadic(call, tail), call.Ellipsis.IsValid()
	if o.KeysSpread && len(tail) == 1 {
		o.KeySlice = tail[0]
	}
}

// setSliceKeys sets op's keys from e, a []string of keys: the elements of
// a literal, or the slice.
func (o *Op) setSliceKeys(e ast.Expr) {
	o.Keys, o.KeysSpread = sliceElems(e)
	if o.KeysSpread {
		o.KeySlice = e
	}
}

func cursorAt(pass *analysis.Pass, n ast.Node) (inspector.Cursor, bool) {
	in, ok := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	if !ok {
		return inspector.Cursor{}, false
	}
	c, ok := in.Root().FindByPos(n.Pos(), n.End())
	if !ok || c.Node() != n {
		return inspector.Cursor{}, false
	}
	return c, true
}

// funcBody is the body of the innermost function around cur.
func funcBody(cur inspector.Cursor) *ast.BlockStmt {
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch n := c.Node().(type) {
		case *ast.FuncDecl:
			return n.Body
		case *ast.FuncLit:
			return n.Body
		}
	}
	return nil
}

// nameOf is the identifier that e names something by: x, or the Sel of
// pkg.x and v.x; nil for other expressions.
func nameOf(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}
