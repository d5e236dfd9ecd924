package keyid

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Keys of many locks: a function that takes a lock per element of a batch
// appends each key it takes to a slice (keys = append(keys, key), l.keys =
// append(l.keys, key)), and releases them through that slice: spread
// into one DEL (Del(ctx, keys...)) or one DEL per element (for _, k :=
// range keys). The slice stands for its elements; its form is what a
// release's is compared with (Same in one function, SameShape across).

// Collected lists the forms of the slices that e's value is appended to
// in s's function (v = append(v, …, e, …), v the same variable or field
// on both sides), read where they are written.
func (s *Scope) Collected(e ast.Expr) []Form {
	if s == nil || s.body == nil || e == nil {
		return nil
	}
	var out []Form
	for _, ap := range s.appendStmts() {
		for _, a := range ap.elems {
			if s.Same(a, e) {
				out = append(out, s.Of(ap.slice))
				break
			}
		}
	}
	return out
}

// appendStmt is v = append(v, elems…): slice is v.
type appendStmt struct {
	slice ast.Expr
	elems []ast.Expr
}

// appendStmts lists the appends to a slice in s's body, found in one walk
// (Collected is asked per acquire: a walk each was quadratic in a long
// function of locks).
func (s *Scope) appendStmts() []appendStmt {
	s.appendsOnce.Do(s.findAppends)
	return s.appends
}

func (s *Scope) findAppends() {
	ast.Inspect(s.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
			return true
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || len(call.Args) < 2 || call.Ellipsis.IsValid() || !s.isAppend(call) || !sameVar(s.info, as.Lhs[0], call.Args[0]) {
			return true
		}
		s.appends = append(s.appends, appendStmt{slice: as.Lhs[0], elems: call.Args[1:]})
		return true
	})
}

// isAppend reports whether call calls the builtin append.
func (s *Scope) isAppend(call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := s.info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "append"
}

// sameVar reports whether a and b name the same variable, or the same
// field of the same variable (l.keys and l.keys).
func sameVar(info *types.Info, a, b ast.Expr) bool {
	switch a := ast.Unparen(a).(type) {
	case *ast.Ident:
		b, ok := ast.Unparen(b).(*ast.Ident)
		return ok && info.ObjectOf(a) != nil && info.ObjectOf(a) == info.ObjectOf(b)
	case *ast.SelectorExpr:
		b, ok := ast.Unparen(b).(*ast.SelectorExpr)
		return ok && info.ObjectOf(a.Sel) == info.ObjectOf(b.Sel) && sameVar(info, a.X, b.X)
	}
	return false
}

// SliceOf is, when f is an element of a ranged slice (k in for _, k :=
// range keys, or a local defined from it), the form of that slice.
func SliceOf(f Form) (Form, bool) {
	if len(f.Parts) != 1 {
		return Form{}, false
	}
	p := f.Parts[0]
	if p.Kind == Local && p.def != nil && len(p.Path) == 0 {
		return SliceOf(*p.def)
	}
	if p.Kind == Elem && len(p.Path) == 0 && len(p.Args) == 1 {
		return p.Args[0], true
	}
	return Form{}, false
}

// SameSlice reports whether a and b are the same slice variable (or the
// same field of the same variable), whatever was appended to it between
// the two reads: one variable collecting keys in one function.
func SameSlice(a, b Form) bool {
	if a.sc != b.sc || len(a.Parts) != 1 || len(b.Parts) != 1 {
		return false
	}
	pa, pb := &a.Parts[0], &b.Parts[0]
	return pa.IsVar() && pa.Kind == pb.Kind && pa.v != nil && pa.v == pb.v && equalPath(pa.Path, pb.Path)
}

// VarOf is the variable f is, when f is one variable with no field
// selected from it, or nil.
func VarOf(f Form) *types.Var {
	if len(f.Parts) != 1 || !f.Parts[0].IsVar() || len(f.Parts[0].Path) > 0 {
		return nil
	}
	return f.Parts[0].v
}
