package fixes

import (
	"go/ast"

	"golang.org/x/tools/go/ast/inspector"
)

// Together reports whether the code at x and the code at y always run
// together, so that deleting one and folding it into the other keeps every
// path the same: the statements holding them are in the same statement list
// (a block or a case body), and neither the first of the two nor any
// statement between them contains a return, break, continue, goto or
// fallthrough (function literals aside). Panics and calls that never return
// are not considered.
func Together(x, y inspector.Cursor) bool {
	sx, ok := listStmt(x)
	if !ok {
		return false
	}
	sy, ok := listStmt(y)
	if !ok || sx.Parent() != sy.Parent() {
		return false
	}
	if sy.Node().Pos() < sx.Node().Pos() {
		sx, sy = sy, sx
	}
	for c := sx; c != sy; {
		if jumps(c.Node()) {
			return false
		}
		next, ok := c.NextSibling()
		if !ok {
			return false
		}
		c = next
	}
	return true
}

// listStmt climbs from c to the statement that is an element of a
// statement list, without leaving the enclosing function.
func listStmt(c inspector.Cursor) (inspector.Cursor, bool) {
	for ; c.Node() != nil; c = c.Parent() {
		switch c.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl, *ast.File:
			return c, false
		}
		if _, ok := c.Node().(ast.Stmt); !ok {
			continue
		}
		switch c.Parent().Node().(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return c, true
		}
	}
	return c, false
}

// jumps reports whether n contains a return or branch statement outside
// nested function literals.
func jumps(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt:
			found = true
		}
		return !found
	})
	return found
}
