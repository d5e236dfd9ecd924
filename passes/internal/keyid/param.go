package keyid

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Param says how a key expression inside a function is built from one of
// the function's parameters: the parameter, and the key's template, its
// text with the parameter written as $ and constants by value. In
//
//	func Lock(ctx context.Context, id string) { rdb.SetNX(ctx, "lock:"+id, …) }
//
// the key is Param{Index: 1, Name: "id", Template: `("lock:"+$)`}. A key
// built from a field of the receiver has Index -1 and a template such as
// `$.key`; a parameter with fields of the receiver around it
// (l.prefix + name) has the parameter's index, and the fields in the
// template as `recv.prefix`.
type Param struct {
	Index    int // the parameter's position, the receiver not counted; -1 for the receiver
	Name     string
	Template string
}

// ParamKey describes e, a key expression in body, the body of the function
// fn, when its value depends on exactly one parameter of fn (or on fields
// of the receiver) that body never assigns, and otherwise only on
// constants, package-level variables, pure formatting (fmt.Sprintf,
// fmt.Sprint, strconv, string conversions) and key functions
// (KeyBuilder: paymentLockKey(orderNo)). Variadic parameters do not
// count. A parameter that body assigns once, by a statement of the body
// itself (key = fullKey(key), topReassign), stands after that statement
// for its right-hand side. A local variable of body written once
// (SoleDef) stands for the expression it is defined with, up to
// MaxLocalDepth locals deep, so
//
//	func Lock(ctx context.Context, id string) { key := "lock:" + id; rdb.SetNX(ctx, key, …) }
//
// has the template of the inline key, `("lock:"+$)`.
func ParamKey(info *types.Info, fn *types.Func, body *ast.BlockStmt, e ast.Expr) (Param, bool) {
	sig := fn.Signature()
	t := &templ{info: info, sig: sig, body: body, param: nil}
	var b strings.Builder
	if !t.write(&b, e) {
		return Param{}, false
	}
	tmpl := b.String()
	switch {
	case t.param == nil && !t.recv:
		return Param{}, false
	case t.param == nil:
		// Built from the receiver's fields only.
		t.param = sig.Recv()
		tmpl = strings.ReplaceAll(tmpl, recvMark, "$")
	default:
		// A parameter with a receiver's field around it (l.prefix + name):
		// the field is part of the template, as a package-level variable
		// would be.
		tmpl = strings.ReplaceAll(tmpl, recvMark, recvWord)
	}
	p := Param{Index: -1, Name: t.param.Name(), Template: tmpl}
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == t.param {
			p.Index = i
		}
	}
	return p, true
}

// MaxLocalDepth bounds how many local variables ParamKey follows from a
// key expression to the parameter (key := prefix + id; k := key).
const MaxLocalDepth = 3

type templ struct {
	info   *types.Info
	sig    *types.Signature
	body   *ast.BlockStmt
	param  *types.Var // the one parameter the key depends on
	recv   bool       // the key depends on fields of the receiver
	locals int        // local variables followed on the current path
}

// recvMark stands for the receiver in a template being written: a NUL,
// which no constant's ExactString contains.
const recvMark = "\x00"

// use records that the key depends on v, which must be the only
// parameter it depends on.
func (t *templ) use(v *types.Var) bool {
	if t.param != nil && t.param != v {
		return false
	}
	t.param = v
	return true
}

func (t *templ) isParam(v *types.Var) bool {
	params := t.sig.Params()
	for i := range params.Len() {
		if params.At(i) == v {
			return !(t.sig.Variadic() && i == params.Len()-1)
		}
	}
	return false
}

func (t *templ) write(b *strings.Builder, e ast.Expr) bool {
	e = ast.Unparen(e)
	if c := constValue(t.info, e); c != nil {
		b.WriteString(c.ExactString())
		return true
	}
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := t.info.Uses[e].(*types.Var)
		switch {
		case !ok:
			return false
		case v.Pkg() != nil && v.Parent() == v.Pkg().Scope():
			b.WriteString("var:" + v.Pkg().Path() + "." + v.Name())
			return true
		case t.isParam(v) && !AssignedIn(t.info, t.body, v):
			b.WriteString("$")
			return t.use(v)
		case t.isParam(v):
			// Normalised once at the top (key = fullKey(key)): after that
			// statement the parameter stands for its right-hand side, in
			// which it is still the argument.
			as := topReassign(t.info, t.body, v)
			switch {
			case as == nil:
				return false
			case e.Pos() >= as.Rhs[0].Pos() && e.End() <= as.Rhs[0].End():
				b.WriteString("$")
				return t.use(v)
			case e.Pos() > as.End() && t.locals < MaxLocalDepth:
				t.locals++
				ok := t.write(b, as.Rhs[0])
				t.locals--
				return ok
			}
			return false
		case t.locals < MaxLocalDepth:
			// A local written once: its definition.
			rhs, _ := SoleDef(t.info, t.body, v)
			if rhs == nil {
				return false
			}
			t.locals++
			ok := t.write(b, rhs)
			t.locals--
			return ok
		}
	case *ast.SelectorExpr:
		sel, ok := t.info.Selections[e]
		if !ok {
			// A qualified package-level variable.
			if v, ok := t.info.Uses[e.Sel].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				b.WriteString("var:" + v.Pkg().Path() + "." + v.Name())
				return true
			}
			return false
		}
		if sel.Kind() != types.FieldVal {
			return false
		}
		// A field of the receiver: recv.f.g.
		path := []string{e.Sel.Name}
		x := ast.Unparen(e.X)
		for {
			s, ok := x.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if sl, ok := t.info.Selections[s]; !ok || sl.Kind() != types.FieldVal {
				return false
			}
			path = append([]string{s.Sel.Name}, path...)
			x = ast.Unparen(s.X)
		}
		id, ok := x.(*ast.Ident)
		if !ok || t.sig.Recv() == nil || t.info.Uses[id] != t.sig.Recv() || AssignedIn(t.info, t.body, t.sig.Recv()) {
			return false
		}
		b.WriteString(recvMark + "." + strings.Join(path, "."))
		t.recv = true
		return true
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return false
		}
		b.WriteString("(")
		if !t.write(b, e.X) {
			return false
		}
		b.WriteString("+")
		if !t.write(b, e.Y) {
			return false
		}
		b.WriteString(")")
		return true
	case *ast.CallExpr:
		if e.Ellipsis.IsValid() {
			return false
		}
		var name string
		if tv, ok := t.info.Types[e.Fun]; ok && tv.IsType() {
			if len(e.Args) != 1 {
				return false
			}
			name = types.TypeString(tv.Type, nil)
		} else if kb := KeyBuilder(t.info, e); kb != nil {
			// A key function of the service's own (lockKey(id)): the same
			// key whenever its arguments are, as for fmt.Sprintf.
			name = "func:" + kb.FullName()
			if kb.Signature().Recv() != nil {
				// A method (s.key("lease", name)): its receiver is one more
				// input, fn's own receiver only, written as recv.* so that
				// two calls name the same key only on the same receiver
				// (UsesRecv, SubstRecv).
				sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
				if !ok {
					return false
				}
				id, ok := ast.Unparen(sel.X).(*ast.Ident)
				if !ok || t.sig.Recv() == nil || t.info.Uses[id] != t.sig.Recv() || AssignedIn(t.info, t.body, t.sig.Recv()) {
					return false
				}
				b.WriteString(name + "(" + recvMark + ".*")
				t.recv = true
				for _, a := range e.Args {
					b.WriteString(",")
					if !t.write(b, a) {
						return false
					}
				}
				b.WriteString(")")
				return true
			}
		} else {
			fn, ok := typeutil.Callee(t.info, e).(*types.Func)
			if !ok || fn.Pkg() == nil || !pure[fn.Pkg().Path()+"."+fn.Name()] {
				return false
			}
			name = fn.Pkg().Path() + "." + fn.Name()
		}
		b.WriteString(name + "(")
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(",")
			}
			if !t.write(b, a) {
				return false
			}
		}
		b.WriteString(")")
		return true
	}
	return false
}

// topReassign returns the one assignment to the parameter v in body when
// it is a statement of body itself (not inside a branch or loop) of the
// form v = EXPR, and v is assigned nowhere else nor has its address
// taken; otherwise nil.
func topReassign(info *types.Info, body *ast.BlockStmt, v *types.Var) *ast.AssignStmt {
	var found *ast.AssignStmt
	for _, st := range body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		if id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); ok && info.Uses[id] == v {
			if found != nil {
				return nil
			}
			found = as
		}
	}
	if found == nil || assignedBetween(info, body, v, body.Pos()-1, found.Pos()) || assignedBetween(info, body, v, found.End(), body.End()+1) {
		return nil
	}
	return found
}

// pure lists the formatting functions a key may be built with.
var pure = map[string]bool{
	"fmt.Sprintf": true, "fmt.Sprint": true,
	"strconv.Itoa": true, "strconv.FormatInt": true, "strconv.FormatUint": true, "strconv.Quote": true,
	"strings.Join": true, "strings.ToLower": true, "strings.ToUpper": true,
}

// String is the template with the parameter named, for messages and tests.
func (p Param) String() string {
	return strings.ReplaceAll(p.Template, "$", "{"+p.Name+"}") + "@" + strconv.Itoa(p.Index)
}

// KeptParam reports whether key is, by itself, a parameter of the function
// declaration decl that its body never assigns (not the variadic one), and
// returns the function and the parameter's position.
func KeptParam(info *types.Info, decl *ast.FuncDecl, key ast.Expr) (*types.Func, int, bool) {
	id, ok := ast.Unparen(key).(*ast.Ident)
	if !ok {
		return nil, -1, false
	}
	param, ok := info.ObjectOf(id).(*types.Var)
	if !ok {
		return nil, -1, false
	}
	fn, ok := info.Defs[decl.Name].(*types.Func)
	if !ok {
		return nil, -1, false
	}
	sig := fn.Signature()
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == param {
			if sig.Variadic() && i == sig.Params().Len()-1 || AssignedIn(info, decl.Body, param) {
				return nil, -1, false
			}
			return fn, i, true
		}
	}
	return nil, -1, false
}

// Resolve is e with a local variable of body that is written once
// (SoleDef) replaced by the expression it is defined with, up to
// MaxLocalDepth locals deep: the key of `key := "lock:" + id; rdb.Del(ctx,
// key)` is `"lock:" + id`, whose shape (SameShape) a key of another
// function can share, as the inline key's can. Other expressions, and
// locals written more than once, are returned as they are.
func Resolve(info *types.Info, body *ast.BlockStmt, e ast.Expr) ast.Expr {
	if body == nil {
		return e
	}
	for range MaxLocalDepth {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return e
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok {
			return e
		}
		rhs, _ := SoleDef(info, body, v)
		if rhs == nil {
			return e
		}
		e = rhs
	}
	return e
}

// recvWord is how a template (ParamKey) writes the receiver a key is
// built from together with a parameter: recv.prefix.
const recvWord = "recv"

// recvAt lists where tmpl names the receiver: the word recv followed by a
// field, outside string constants and not inside a longer name.
func recvAt(tmpl string) []int {
	var at []int
	for i := 0; i < len(tmpl); i++ {
		switch c := tmpl[i]; {
		case c == '"' || c == '`':
			// A constant's ExactString: skip to its closing quote.
			for i++; i < len(tmpl) && tmpl[i] != c; i++ {
				if tmpl[i] == '\\' && c == '"' {
					i++
				}
			}
		case strings.HasPrefix(tmpl[i:], recvWord+".") && (i == 0 || !nameByte(tmpl[i-1])):
			at = append(at, i)
			i += len(recvWord)
		}
	}
	return at
}

// nameByte: b can be part of a name, a package path or a selector.
func nameByte(b byte) bool {
	return b == '_' || b == '.' || b == '/' || b == ':' || b == '-' || b == '$' ||
		'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b >= 0x80
}

// UsesRecv reports whether the template tmpl builds the key from fields
// of the receiver as well as from the parameter (l.prefix + name): two
// calls build the same key from the same argument only on the same
// receiver.
func UsesRecv(tmpl string) bool { return len(recvAt(tmpl)) > 0 }

// SubstRecv writes with in place of the receiver in tmpl: the template of
// a key built by a method called on with (a field of another receiver,
// "recv.inner", or a package-level variable, "var:pkg/path.locker").
func SubstRecv(tmpl, with string) string {
	at := recvAt(tmpl)
	if len(at) == 0 {
		return tmpl
	}
	var b strings.Builder
	last := 0
	for _, i := range at {
		b.WriteString(tmpl[last:i])
		b.WriteString(with)
		last = i + len(recvWord)
	}
	b.WriteString(tmpl[last:])
	return b.String()
}

// RecvPath is the template text (for SubstRecv) of e, the receiver of a
// call inside fn's body: recv, or recv.f.g, for fn's own receiver or a
// chain of its fields; var:pkg/path.v, or var:pkg/path.v.f, for a
// package-level variable or a chain of its fields. ok is false for any
// other receiver (a parameter, a local, a call), whose value the template
// cannot say.
func RecvPath(info *types.Info, fn *types.Func, body *ast.BlockStmt, e ast.Expr) (string, bool) {
	var fields []string
	x := ast.Unparen(e)
	for {
		s, ok := x.(*ast.SelectorExpr)
		if !ok {
			break
		}
		if sl, ok := info.Selections[s]; ok {
			if sl.Kind() != types.FieldVal {
				return "", false
			}
			fields = append([]string{s.Sel.Name}, fields...)
			x = ast.Unparen(s.X)
			continue
		}
		// pkg.v
		v, ok := info.Uses[s.Sel].(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
			return "", false
		}
		return strings.Join(append([]string{"var:" + v.Pkg().Path() + "." + v.Name()}, fields...), "."), true
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return "", false
	}
	v, ok := info.Uses[id].(*types.Var)
	switch {
	case !ok:
		return "", false
	case v.Pkg() != nil && v.Parent() == v.Pkg().Scope():
		return strings.Join(append([]string{"var:" + v.Pkg().Path() + "." + v.Name()}, fields...), "."), true
	case fn.Signature().Recv() == v && !AssignedIn(info, body, v):
		return strings.Join(append([]string{recvWord}, fields...), "."), true
	}
	return "", false
}
