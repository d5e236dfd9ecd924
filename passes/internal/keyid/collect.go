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
// on both sides), and of the maps it is written into as a key (m[e] =
// x), read where they are written.
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

// appendStmt is v = append(v, elems…): slice is v; or m[k] = x, a key
// written into the map m (mapKey): slice is m, elems is k.
type appendStmt struct {
	slice  ast.Expr
	elems  []ast.Expr
	mapKey bool
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
		if ix, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr); ok && as.Tok == token.ASSIGN {
			if _, isMap := s.info.TypeOf(ix.X).Underlying().(*types.Map); isMap {
				s.appends = append(s.appends, appendStmt{slice: ix.X, elems: []ast.Expr{ix.Index}, mapKey: true})
			}
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

// CollectedParam lists the forms of the slices and maps (Collected) that
// the parameter at index, unwritten, is appended or written to as a key
// in s's function: a helper that tracks the key it is given
// (states[key] = ctrl).
func (s *Scope) CollectedParam(index int) []Form {
	if s == nil || s.body == nil || s.sig == nil {
		return nil
	}
	var out []Form
	for _, ap := range s.appendStmts() {
		for _, a := range ap.elems {
			f := s.Of(a)
			if len(f.Parts) == 1 && f.Parts[0].Kind == Param && f.Parts[0].Index == index && len(f.Parts[0].Path) == 0 {
				out = append(out, s.Of(ap.slice))
				break
			}
		}
	}
	return out
}

// elemField is the form of the field f of an element of a local slice
// (base: the element, as an index of a range loop over the slice or the
// loop's element variable reads it) when the slice is built in s's
// function only by appends of composite literals that set f to the same
// value: xs = append(xs, &item{key: k, …}), then xs[i].key is k. The
// slice must start empty (make, an empty literal, nil, or a var
// declaration) and be written nowhere else.
func (s *Scope) elemField(base []Part, f *types.Var, depth int) ([]Part, bool) {
	if f == nil || len(base) != 1 || depth >= MaxLocalDepth || s.body == nil {
		return nil, false
	}
	el := base[0]
	if el.Kind == Local && len(el.Path) == 0 && el.def != nil && len(el.def.Parts) == 1 {
		el = el.def.Parts[0]
	}
	if el.Kind != Elem || len(el.Path) != 0 || len(el.Args) != 1 || len(el.Args[0].Parts) != 1 {
		return nil, false
	}
	sp := el.Args[0].Parts[0]
	if sp.Kind != Local || len(sp.Path) != 0 || sp.v == nil {
		return nil, false
	}
	v := sp.v
	var vals []ast.Expr
	for _, ap := range s.appendStmts() {
		id, ok := ast.Unparen(ap.slice).(*ast.Ident)
		if ap.mapKey || !ok || s.info.ObjectOf(id) != v {
			continue
		}
		for _, e := range ap.elems {
			x, ok := fieldOfLit(s.info, e, f)
			if !ok {
				return nil, false
			}
			vals = append(vals, x)
		}
	}
	if len(vals) == 0 {
		return nil, false
	}
	// Every write of v is one of those appends, or its empty start.
	n := 0
	for _, ap := range s.appendStmts() {
		if id, ok := ast.Unparen(ap.slice).(*ast.Ident); ok && !ap.mapKey && s.info.ObjectOf(id) == v {
			n++
		}
	}
	switch s.Vars().Writes(v) - n {
	case 0:
	case 1:
		if !s.startsEmpty(v) {
			return nil, false
		}
	default:
		return nil, false
	}
	first := Form{Parts: s.parts(nil, vals[0], depth+1), sc: s}
	for _, x := range vals[1:] {
		if !Same(first, Form{Parts: s.parts(nil, x, depth+1), sc: s}) {
			return nil, false
		}
	}
	return first.Parts, true
}

// fieldOfLit is the value that e, a composite literal of a struct (or its
// address), sets the field f to.
func fieldOfLit(info *types.Info, e ast.Expr, f *types.Var) (ast.Expr, bool) {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			if fv, ok := info.Uses[id].(*types.Var); ok && fv.Origin() == f.Origin() {
				return kv.Value, true
			}
		}
	}
	return nil, false
}

// startsEmpty reports whether v is defined in s's body by v := make(…),
// an empty composite literal, or nil.
func (s *Scope) startsEmpty(v *types.Var) bool {
	empty := false
	ast.Inspect(s.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
			return !empty
		}
		for i, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && s.info.Defs[id] == v {
				switch r := ast.Unparen(as.Rhs[i]).(type) {
				case *ast.CompositeLit:
					empty = len(r.Elts) == 0
				case *ast.CallExpr:
					b, ok := s.info.Uses[astIdent(r.Fun)].(*types.Builtin)
					empty = ok && b.Name() == "make"
				case *ast.Ident:
					empty = s.info.Types[r].IsNil()
				}
			}
		}
		return !empty
	})
	return empty
}

func astIdent(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}
