package astx

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// FieldWrites calls write for every write of a struct field in the
// package that in inspects: an element of a composite literal (keyed or
// by position), an assignment x.f = v, and, with a nil value, the writes
// whose value cannot be read (a tuple assignment, x.f++, an operator
// assignment, &x.f, which lets anything write it). at is the literal
// element or the statement. Fields are given by their origin (a generic
// type's instances share one).
func FieldWrites(info *types.Info, in *inspector.Inspector, write func(f *types.Var, value ast.Expr, at ast.Node)) {
	for n := range in.PreorderSeq((*ast.CompositeLit)(nil), (*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.UnaryExpr)(nil)) {
		switch n := n.(type) {
		case *ast.CompositeLit:
			st, ok := litStruct(info, n)
			if !ok {
				continue
			}
			for i, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() {
							write(f.Origin(), kv.Value, kv)
						}
					}
				} else if i < st.NumFields() {
					write(st.Field(i).Origin(), el, el)
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if f := FieldOf(info, lhs); f != nil {
					var v ast.Expr
					if n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
						v = n.Rhs[i]
					}
					write(f, v, n)
				}
			}
		case *ast.IncDecStmt:
			if f := FieldOf(info, n.X); f != nil {
				write(f, nil, n)
			}
		case *ast.UnaryExpr:
			if f := FieldOf(info, n.X); n.Op == token.AND && f != nil {
				write(f, nil, n)
			}
		}
	}
}

// litStruct is the struct type of a composite literal (or of the
// pointer's element, for an element of []*T{{…}}).
func litStruct(info *types.Info, lit *ast.CompositeLit) (*types.Struct, bool) {
	t := info.TypeOf(lit)
	if t == nil {
		return nil, false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// FieldOf is the field e selects (x.key), by its origin, or nil.
func FieldOf(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return nil
	}
	f, _ := s.Obj().(*types.Var)
	if f == nil {
		return nil
	}
	return f.Origin()
}
