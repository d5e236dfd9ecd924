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
	return IndexVars(info, body).AssignedBetween(v, from, to)
}

// AssignedIn reports whether v is assigned, incremented, or has its
// address taken anywhere in body.
func AssignedIn(info *types.Info, body ast.Node, v *types.Var) bool {
	return IndexVars(info, body).AssignedIn(v)
}

// SoleDef returns the expression the local variable v of body is defined
// with, when that is its only assignment in body and its address is never
// taken, and the number of its other uses. It returns nil when v is not a
// local of body or is written more than once.
func SoleDef(info *types.Info, body *ast.BlockStmt, v *types.Var) (ast.Expr, int) {
	return IndexVars(info, body).SoleDef(v)
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

// StmtList is the statement list n holds: a block's statements, or a case
// or select clause's body; nil for any other node.
func StmtList(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}

// LineIndent is the leading white space of the line holding pos, read
// through read; ok is false when the file is unknown or cannot be read
// as the FileSet saw it.
func LineIndent(fset *token.FileSet, read func(string) ([]byte, error), pos token.Pos) (indent string, ok bool) {
	tf := fset.File(pos)
	if tf == nil {
		return "", false
	}
	src, err := read(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return "", false
	}
	// The line in the file itself: a //line directive may renumber it
	// past the file's end.
	start := tf.Offset(tf.LineStart(tf.PositionFor(pos, false).Line))
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end]), true
}
