package keyid

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"sync"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
)

// Scope reads forms in one function: a declaration (with the function
// literals inside it, whose variables are its locals), or a function
// literal outside any declaration. Forms read in one Scope compare with
// Same; forms of two Scopes with SameShape.
type Scope struct {
	info *types.Info
	fn   *types.Func      // the declared function, or nil
	sig  *types.Signature // its signature, or nil
	body *ast.BlockStmt
	vars *astx.Vars // built on first use

	appendsOnce sync.Once    // checks share a function's scope, and may run at once
	appends     []appendStmt // v = append(v, …) in body (collect.go), found on first use
}

// Vars is the write index of s's body.
func (s *Scope) Vars() *astx.Vars {
	if s.vars == nil {
		s.vars = astx.IndexVars(s.info, s.body)
	}
	return s.vars
}

// NewScope is the scope of the function declaration or literal fn (the
// outermost one around the keys to read).
func NewScope(info *types.Info, fn ast.Node) *Scope {
	s := &Scope{info: info}
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		s.body = fn.Body
		if f, ok := info.Defs[fn.Name].(*types.Func); ok {
			s.fn, s.sig = f, f.Signature()
		}
	case *ast.FuncLit:
		s.body = fn.Body
	}
	return s
}

// BodyScope reads forms in body as a function of its own, whatever is
// around it: its parameters and receiver are read as locals.
func BodyScope(info *types.Info, body *ast.BlockStmt) *Scope {
	return &Scope{info: info, body: body}
}

// Func is the declared function of s, or nil.
func (s *Scope) Func() *types.Func { return s.fn }

// Body is the body of s's function.
func (s *Scope) Body() *ast.BlockStmt { return s.body }

// MaxLocalDepth bounds how many local variables a form follows to their
// definitions (key := prefix + id; k := key).
const MaxLocalDepth = 3

// Of is the form of e, an expression inside s's function.
func (s *Scope) Of(e ast.Expr) Form {
	if s == nil || e == nil {
		return Form{Parts: []Part{{Kind: Unknown}}, sc: s}
	}
	return Form{Parts: s.parts(nil, e, 0), sc: s}
}

// Same reports whether a and b, expressions inside s's function, are
// the same value where they are read (Same of their forms).
func (s *Scope) Same(a, b ast.Expr) bool { return Same(s.Of(a), s.Of(b)) }

// A rule reads one kind of expression into parts. The rules are the
// whole of what a form knows: a new way of writing a key is one more
// rule (and its test cases in keyid_test.go).
type rule func(s *Scope, e ast.Expr, depth int) ([]Part, bool)

// rules, in order; the first that takes e decides. (Set in init: the
// rules read subexpressions through parts, which reads rules.)
var rules []rule

func init() {
	rules = []rule{
		constRule,
		concatRule,
		identRule,
		selectorRule,
		indexRule,
		derefRule,
		conversionRule,
		joinRule,
		callRule,
	}
}

func (s *Scope) parts(out []Part, e ast.Expr, depth int) []Part {
	e = ast.Unparen(e)
	for _, r := range rules {
		if ps, ok := r(s, e, depth); ok {
			return appendParts(out, ps...)
		}
	}
	return append(out, Part{Kind: Unknown})
}

// appendParts appends ps to out, joining adjacent text.
func appendParts(out []Part, ps ...Part) []Part {
	for _, p := range ps {
		if n := len(out); n > 0 && p.Kind == Text && out[n-1].Kind == Text {
			out[n-1].Text += p.Text
			out[n-1].lit = false
			continue
		}
		out = append(out, p)
	}
	return out
}

// constRule: a constant is its value ("lock:", a named constant, a
// constant expression).
func constRule(s *Scope, e ast.Expr, _ int) ([]Part, bool) {
	tv, ok := s.info.Types[e]
	if !ok || tv.Value == nil {
		return nil, false
	}
	if tv.Value.Kind() == constant.String {
		_, lit := e.(*ast.BasicLit)
		return []Part{{Kind: Text, Text: constant.StringVal(tv.Value), lit: lit}}, true
	}
	return []Part{{Kind: Const, Text: tv.Value.ExactString()}}, true
}

// concatRule: a + b of strings is a's parts, then b's.
func concatRule(s *Scope, e ast.Expr, depth int) ([]Part, bool) {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || b.Op != token.ADD {
		return nil, false
	}
	return s.parts(s.parts(nil, b.X, depth), b.Y, depth), true
}

// identRule: a variable. A package-level one is Global; the receiver
// and the parameters, when the function never writes them, Recv and
// Param; a parameter written once at the top (key = fullKey(key)) is,
// after that statement, what it was set to; any other variable is a
// Local, with its definition when it is written once (followed up to
// MaxLocalDepth deep).
func identRule(s *Scope, e ast.Expr, depth int) ([]Part, bool) {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := s.info.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	if isGlobal(v) {
		return []Part{{Kind: Global, Text: v.Pkg().Path() + "." + v.Name(), v: v}}, true
	}
	if s.sig != nil && s.body != nil {
		if v == s.sig.Recv() && !s.Vars().AssignedIn(v) {
			return []Part{{Kind: Recv, v: v}}, true
		}
		if i := s.param(v); i >= 0 {
			if !s.Vars().AssignedIn(v) {
				return []Part{{Kind: Param, Index: i, v: v}}, true
			}
			if as := s.topReassign(v); as != nil {
				rhs := as.Rhs[0]
				switch {
				case astx.Encloses(rhs, id):
					return []Part{{Kind: Param, Index: i, v: v}}, true
				case id.Pos() > as.End() && depth < MaxLocalDepth:
					return s.parts(nil, rhs, depth+1), true
				}
			}
		}
	}
	p := Part{Kind: Local, Text: v.Name(), v: v, pos: id.Pos()}
	if depth < MaxLocalDepth && s.body != nil {
		if rhs, _ := s.Vars().SoleDef(v); rhs != nil {
			d := Form{Parts: s.parts(nil, rhs, depth+1), sc: s}
			p.def = &d
		} else if x := s.rangedOver(v); x != nil {
			// for _, k := range keys: k is an element of keys, the
			// same as any other loop's element of keys.
			d := Form{Parts: []Part{{Kind: Elem, Args: []Form{{Parts: s.parts(nil, x, depth+1), sc: s}}}}, sc: s}
			p.def = &d
		}
	}
	return []Part{p}, true
}

// rangedOver is the slice or array that v is the element variable of
// (for _, v := range x), or the map that v is the key variable of (for
// v := range m: a map's keys are what it holds as a set of keys), when
// nothing else writes v; otherwise nil.
func (s *Scope) rangedOver(v *types.Var) ast.Expr {
	if rs := s.Vars().RangedBy(v); rs != nil {
		if s.Vars().AssignedBetween(v, rs.Body.Pos(), rs.Body.End()) {
			return nil
		}
		switch s.info.TypeOf(rs.X).Underlying().(type) {
		case *types.Slice, *types.Array:
			return rs.X
		}
		return nil
	}
	if rs := s.Vars().RangedKeyBy(v); rs != nil && !s.Vars().AssignedBetween(v, rs.Body.Pos(), rs.Body.End()) {
		if _, ok := s.info.TypeOf(rs.X).Underlying().(*types.Map); ok {
			return rs.X
		}
	}
	return nil
}

// indexRule: xs[i], where i is the index variable of a range loop over
// the slice or array xs itself (for i := range xs), not written in the
// loop, is an element of xs, as the loop's element variable would be.
func indexRule(s *Scope, e ast.Expr, depth int) ([]Part, bool) {
	ix, ok := e.(*ast.IndexExpr)
	if !ok || s.body == nil {
		return nil, false
	}
	switch s.info.TypeOf(ix.X).Underlying().(type) {
	case *types.Slice, *types.Array:
	default:
		return nil, false
	}
	id, ok := ast.Unparen(ix.Index).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := s.info.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	rs := s.Vars().RangedKeyBy(v)
	if rs == nil || !sameVar(s.info, rs.X, ix.X) || !astx.Encloses(rs.Body, ix) || s.Vars().AssignedBetween(v, rs.Body.Pos(), rs.Body.End()) {
		return nil, false
	}
	return []Part{{Kind: Elem, Args: []Form{{Parts: s.parts(nil, ix.X, depth+1), sc: s}}}}, true
}

// param is v's position among s's parameters (the receiver not
// counted, the variadic one left out), or -1.
func (s *Scope) param(v *types.Var) int {
	ps := s.sig.Params()
	for i := range ps.Len() {
		if ps.At(i) == v {
			if s.sig.Variadic() && i == ps.Len()-1 {
				return -1
			}
			return i
		}
	}
	return -1
}

func isGlobal(v *types.Var) bool {
	return v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// topReassign returns the one assignment to the parameter v in s's body
// when it is a statement of the body itself (not inside a branch or loop)
// of the form v = EXPR, and v is assigned nowhere else nor has its
// address taken; otherwise nil.
func (s *Scope) topReassign(v *types.Var) *ast.AssignStmt {
	list := s.body.List
	i := sort.Search(len(list), func(i int) bool { return list[i].End() > s.Vars().FirstWrite(v) })
	if i == len(list) {
		return nil
	}
	as, ok := list[i].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Pos() != s.Vars().FirstWrite(v) {
		return nil
	}
	if id := astx.IdentOf(as.Lhs[0]); id == nil || s.info.Uses[id] != v || s.Vars().AssignedBetween(v, as.Pos(), s.body.End()+1) {
		return nil
	}
	return as
}

// selectorRule: a package-level variable of another package (pkg.V),
// or a field selected from a variable (opts.Prefix, l.key).
func selectorRule(s *Scope, e ast.Expr, depth int) ([]Part, bool) {
	x, ok := e.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	sel, ok := s.info.Selections[x]
	if !ok {
		if v, ok := s.info.Uses[x.Sel].(*types.Var); ok && isGlobal(v) {
			return []Part{{Kind: Global, Text: v.Pkg().Path() + "." + v.Name(), v: v}}, true
		}
		return nil, false
	}
	if sel.Kind() != types.FieldVal {
		return nil, false
	}
	field, _ := sel.Obj().(*types.Var)
	base := s.parts(nil, x.X, depth)
	if ps, ok := s.elemField(base, field, depth); ok {
		return ps, true
	}
	return s.selectFrom(base, x.Sel.Name, field)
}

// selectFrom is base with the field name selected: base must be one
// variable part. A local's definition, when it is one variable too,
// selects the same field.
func (s *Scope) selectFrom(base []Part, name string, field *types.Var) ([]Part, bool) {
	if len(base) != 1 || !base[0].IsVar() {
		return nil, false
	}
	p := base[0]
	p.Path = append(slices.Clip(p.Path), name)
	p.field = field
	if p.def != nil {
		if d, ok := s.selectFrom(p.def.Parts, name, field); ok {
			p.def = &Form{Parts: d, sc: s}
		} else {
			p.def = nil
		}
	}
	return []Part{p}, true
}

// derefRule: *p is p's value, selected as the field "*".
func derefRule(s *Scope, e ast.Expr, depth int) ([]Part, bool) {
	x, ok := e.(*ast.StarExpr)
	if !ok {
		return nil, false
	}
	return s.selectFrom(s.parts(nil, x.X, depth), "*", nil)
}

// conversionRule: a conversion between string types (string, []byte,
// a named string type: Del(ctx, string(key))) is its operand, the same
// bytes on the wire; any other conversion T(x) is a call of T.
func conversionRule(s *Scope, e ast.Expr, depth int) ([]Part, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, false
	}
	tv, ok := s.info.Types[call.Fun]
	if !ok || !tv.IsType() {
		return nil, false
	}
	if stringType(tv.Type) && stringType(s.info.TypeOf(call.Args[0])) {
		return s.parts(nil, call.Args[0], depth), true
	}
	arg := Form{Parts: s.parts(nil, call.Args[0], depth), sc: s}
	return []Part{{Kind: Call, Text: types.TypeString(tv.Type, nil), Args: []Form{arg}, Conv: true}}, true
}

// joinRule: strings.Join of a slice written out ([]string{"lock", id})
// is its elements with the separator between them: "lock" + ":" + id.
func joinRule(s *Scope, e ast.Expr, depth int) ([]Part, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return nil, false
	}
	fn, ok := typeutil.Callee(s.info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "strings" || fn.Name() != "Join" {
		return nil, false
	}
	lit, ok := ast.Unparen(call.Args[0]).(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return nil, false
	}
	var out []Part
	for i, el := range lit.Elts {
		if _, kv := el.(*ast.KeyValueExpr); kv {
			return nil, false
		}
		if i > 0 {
			out = s.parts(out, call.Args[1], depth)
		}
		out = s.parts(out, el, depth)
	}
	return out, true
}

// stringType reports whether t holds text: its underlying type is a
// string or a byte slice.
func stringType(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && (b.Kind() == types.Byte || b.Kind() == types.Uint8)
	}
	return false
}

// callRule: a key function of the module (lockKey(id), s.key("lease",
// id): KeyBuilder) or a pure formatting function (fmt.Sprintf, strconv,
// strings.Join) with the forms of its arguments.
func callRule(s *Scope, e ast.Expr, depth int) ([]Part, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() {
		return nil, false
	}
	p := Part{Kind: Call}
	if kb := KeyBuilder(s.info, call); kb != nil {
		p.Text, p.Builder = "func:"+kb.FullName(), true
		if kb.Signature().Recv() != nil {
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return nil, false
			}
			p.Method = true
			p.Args = append(p.Args, Form{Parts: s.parts(nil, sel.X, depth), sc: s})
		}
	} else {
		fn, ok := typeutil.Callee(s.info, call).(*types.Func)
		if !ok || fn.Pkg() == nil || !pure[fn.Pkg().Path()+"."+fn.Name()] {
			return nil, false
		}
		p.Text = fn.Pkg().Path() + "." + fn.Name()
	}
	for _, a := range call.Args {
		p.Args = append(p.Args, Form{Parts: s.parts(nil, a, depth), sc: s})
	}
	return []Part{p}, true
}

// pure lists the formatting functions a key may be built with.
var pure = map[string]bool{
	"fmt.Sprintf": true, "fmt.Sprint": true,
	"strconv.Itoa": true, "strconv.FormatInt": true, "strconv.FormatUint": true, "strconv.Quote": true,
	"strings.Join": true, "strings.ToLower": true, "strings.ToUpper": true,
}
