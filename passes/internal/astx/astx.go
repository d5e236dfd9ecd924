// Package astx holds the small syntax and type questions that several
// passes ask about the code around an operation: where a local variable
// is defined, whether a variable is written between two points, whether
// a position is in a test file, which node encloses which. None of them
// knows Redis or keys; key identity is package keyid's.
package astx

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// InTest reports whether pos lies in a _test.go file.
func InTest(fset *token.FileSet, pos token.Pos) bool {
	f := fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// Encloses reports whether inner lies within outer (or is outer).
func Encloses(outer, inner ast.Node) bool {
	return outer.Pos() <= inner.Pos() && inner.End() <= outer.End()
}

// IdentOf is e, without parentheses, when it is an identifier; else nil.
func IdentOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// AssignedBetween reports whether v is assigned (or incremented, or has
// its address taken, or is a range variable) in body between positions
// from and to, in either order.
func AssignedBetween(info *types.Info, body ast.Node, v *types.Var, from, to token.Pos) bool {
	if from > to {
		from, to = to, from
	}
	found := false
	within := func(p token.Pos) bool { return p > from && p < to }
	is := func(e ast.Expr) bool {
		id := IdentOf(e)
		return id != nil && info.ObjectOf(id) == v
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.End() < from || n.Pos() > to {
			return n.Pos() <= to && n.End() >= from
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if is(lhs) && within(n.Pos()) {
					found = true
				}
			}
		case *ast.IncDecStmt:
			found = is(n.X) && within(n.X.Pos())
		case *ast.UnaryExpr:
			found = n.Op == token.AND && is(n.X) && within(n.X.Pos())
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e != nil && is(e) && within(e.Pos()) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// AssignedIn reports whether v is assigned, incremented, or has its
// address taken anywhere in body.
func AssignedIn(info *types.Info, body ast.Node, v *types.Var) bool {
	return AssignedBetween(info, body, v, body.Pos()-1, body.End()+1)
}

// SoleDef returns the expression the local variable v of body is defined
// with, when that is its only assignment in body and its address is never
// taken, and the number of its other uses. It returns nil when v is not a
// local of body or is written more than once.
func SoleDef(info *types.Info, body *ast.BlockStmt, v *types.Var) (ast.Expr, int) {
	if v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return nil, 0
	}
	var rhs ast.Expr
	writes, uses := 0, 0
	is := func(e ast.Expr) bool {
		id := IdentOf(e)
		return id != nil && info.ObjectOf(id) == v
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if info.Uses[n] == v {
				uses++
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if !is(l) {
					continue
				}
				writes++
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					rhs = n.Rhs[i]
				} else if n.Tok != token.DEFINE {
					uses-- // counted as a use above
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v {
					writes++
					if len(n.Names) == len(n.Values) {
						rhs = n.Values[i]
					}
				}
			}
		case *ast.IncDecStmt:
			if is(n.X) {
				writes++
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				writes++
			}
		case *ast.RangeStmt:
			if n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value) {
				writes++
			}
		}
		return true
	})
	if writes != 1 {
		return nil, 0
	}
	return rhs, uses
}

// FuncName is the name of the function declaration d as a reader finds
// it: Name, or (T).Name / (*T).Name for a method.
func FuncName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return "(" + star + id.Name + ")." + d.Name.Name
	}
	return d.Name.Name
}
