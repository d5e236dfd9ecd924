package inventory

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Key patterns are Redis glob patterns (the syntax of SCAN MATCH and KEYS):
// the constant parts of a key expression, escaped, with * for every part
// that is only known at run time.

// Escape quotes s for a Redis glob: *, ?, [, ] and \ match themselves.
func Escape(s string) string {
	if !strings.ContainsAny(s, `*?[]\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '*', '?', '[', ']', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Useful reports whether pattern has a literal part: a pattern of
// wildcards only matches every key and says nothing about a lock.
func Useful(pattern string) bool {
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '*', '?':
		default:
			return true
		}
	}
	return false
}

// Match reports whether key matches the Redis glob pattern (Redis's
// stringmatch rules: *, ?, [abc], [^abc], [a-z], \x).
func Match(pattern, key string) bool {
	return match([]byte(pattern), []byte(key))
}

func match(p, s []byte) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for len(p) > 1 && p[1] == '*' {
				p = p[1:]
			}
			if len(p) == 1 {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if match(p[1:], s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if len(s) == 0 {
				return false
			}
			s = s[1:]
			p = p[1:]
		case '[':
			if len(s) == 0 {
				return false
			}
			p = p[1:]
			not := len(p) > 0 && p[0] == '^'
			if not {
				p = p[1:]
			}
			hit := false
			for len(p) > 0 && p[0] != ']' {
				switch {
				case p[0] == '\\' && len(p) >= 2:
					hit = hit || p[1] == s[0]
					p = p[2:]
				case len(p) >= 3 && p[1] == '-':
					lo, hi := p[0], p[2]
					if lo > hi {
						lo, hi = hi, lo
					}
					hit = hit || lo <= s[0] && s[0] <= hi
					p = p[3:]
				default:
					hit = hit || p[0] == s[0]
					p = p[1:]
				}
			}
			if len(p) > 0 {
				p = p[1:] // the ]
			}
			if hit == not {
				return false
			}
			s = s[1:]
		case '\\':
			if len(p) >= 2 {
				p = p[1:]
			}
			fallthrough
		default:
			if len(s) == 0 || p[0] != s[0] {
				return false
			}
			p, s = p[1:], s[1:]
		}
	}
	return len(s) == 0
}

// globber derives key patterns from Go expressions in one package.
type globber struct {
	info   *types.Info
	pkg    *types.Package
	files  []*ast.File
	decls  map[*types.Func]*ast.FuncDecl // built on first use
	decls2 map[*types.Var]decl
	inits  map[*types.Var]ast.Expr // local variables defined once, built per function
	seen   map[*ast.BlockStmt]bool
}

func newGlobber(info *types.Info, pkg *types.Package, files []*ast.File) *globber {
	return &globber{info: info, pkg: pkg, files: files, inits: map[*types.Var]ast.Expr{}, seen: map[*ast.BlockStmt]bool{}}
}

// maxDepth bounds how many helper calls and local definitions a pattern
// is followed through.
const maxDepth = 6

// glob returns the pattern of e, which appears in the function body body
// (nil at package level). env gives the patterns of the parameters of
// helpers being followed. param is set when e is, after following local
// definitions, exactly a parameter of a function that is never assigned:
// its pattern then comes from the callers.
func (g *globber) glob(e ast.Expr, body *ast.BlockStmt, env map[types.Object]string) (pattern string, param *types.Var) {
	p, param := g.expr(e, body, env, 0)
	return squeeze(p), param
}

func squeeze(p string) string {
	for strings.Contains(p, "**") {
		p = strings.ReplaceAll(p, "**", "*")
	}
	return p
}

func (g *globber) expr(e ast.Expr, body *ast.BlockStmt, env map[types.Object]string, depth int) (string, *types.Var) {
	e = ast.Unparen(e)
	if tv, ok := g.info.Types[e]; ok && tv.Value != nil {
		switch tv.Value.Kind() {
		case constant.String:
			return Escape(constant.StringVal(tv.Value)), nil
		case constant.Int, constant.Float:
			return Escape(tv.Value.ExactString()), nil
		}
		return "*", nil
	}
	if depth > maxDepth {
		return "*", nil
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "*", nil
		}
		x, _ := g.expr(e.X, body, env, depth+1)
		y, _ := g.expr(e.Y, body, env, depth+1)
		return x + y, nil
	case *ast.Ident:
		obj := g.info.ObjectOf(e)
		if p, ok := env[obj]; ok {
			return p, nil
		}
		v, ok := obj.(*types.Var)
		if !ok || v.Pkg() != g.pkg || v.Parent() == g.pkg.Scope() || v.IsField() {
			return "*", nil
		}
		d := g.declaring(v)
		if d.body == nil {
			return "*", nil
		}
		if init := g.initOf(v, d.body); init != nil {
			return g.expr(init, d.body, env, depth+1)
		}
		if d.param >= 0 && !assigned(g.info, d.body, v, 0) {
			return "*", v
		}
		return "*", nil
	case *ast.CallExpr:
		return g.call(e, body, env, depth), nil
	}
	return "*", nil
}

func (g *globber) call(call *ast.CallExpr, body *ast.BlockStmt, env map[types.Object]string, depth int) string {
	// A conversion: string(x).
	if tv, ok := g.info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			if at, ok := g.info.Types[call.Args[0]]; ok {
				if ab, ok := at.Type.Underlying().(*types.Basic); ok && ab.Info()&types.IsString != 0 {
					p, _ := g.expr(call.Args[0], body, env, depth+1)
					return p
				}
			}
		}
		return "*"
	}
	fn, ok := typeutil.Callee(g.info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || call.Ellipsis.IsValid() {
		return "*"
	}
	if fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf" && len(call.Args) > 0 {
		return g.sprintf(call, body, env, depth)
	}
	if fn.Pkg() != g.pkg {
		return "*"
	}
	// A same-package helper whose body is `return <expr>`.
	decl := g.declOf(fn)
	if decl == nil || decl.Body == nil || len(decl.Body.List) != 1 {
		return "*"
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return "*"
	}
	sig := fn.Signature()
	if sig.Variadic() {
		return "*"
	}
	inner := map[types.Object]string{}
	for i := range sig.Params().Len() {
		if i < len(call.Args) {
			p, _ := g.expr(call.Args[i], body, env, depth+1)
			inner[sig.Params().At(i)] = p
		}
	}
	p, _ := g.expr(ret.Results[0], decl.Body, inner, depth+1)
	return p
}

// sprintf expands a constant fmt.Sprintf format: %s, %v and %d take the
// pattern of their argument, other verbs become *.
func (g *globber) sprintf(call *ast.CallExpr, body *ast.BlockStmt, env map[types.Object]string, depth int) string {
	tv, ok := g.info.Types[call.Args[0]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "*"
	}
	format := constant.StringVal(tv.Value)
	args := call.Args[1:]
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteString(Escape(string(c)))
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			b.WriteByte('%')
			continue
		}
		plain := true
		for i < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[i]) >= 0 {
			plain = false
			i++
		}
		if i >= len(format) {
			b.WriteByte('*')
			break
		}
		verb := format[i]
		if plain && (verb == 's' || verb == 'v' || verb == 'd') && next < len(args) {
			p, _ := g.expr(args[next], body, env, depth+1)
			b.WriteString(p)
		} else {
			b.WriteByte('*')
		}
		next++
	}
	return b.String()
}

// initOf returns the expression a local variable is initialized with,
// when it is defined once in body (v := e, var v = e) and never assigned
// again.
func (g *globber) initOf(v *types.Var, body *ast.BlockStmt) ast.Expr {
	if !g.seen[body] {
		g.seen[body] = true
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							if lv, ok := g.info.Defs[id].(*types.Var); ok {
								g.inits[lv] = n.Rhs[i]
							}
						}
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i, id := range n.Names {
						if lv, ok := g.info.Defs[id].(*types.Var); ok {
							g.inits[lv] = n.Values[i]
						}
					}
				}
			}
			return true
		})
	}
	init, ok := g.inits[v]
	if !ok || assigned(g.info, body, v, 1) {
		return nil
	}
	return init
}

// assigned reports whether v is assigned in body more than allowed times
// (the definition with := counts as one), or has its address taken.
func assigned(info *types.Info, body ast.Node, v *types.Var, allowed int) bool {
	n := 0
	ast.Inspect(body, func(node ast.Node) bool {
		switch node := node.(type) {
		case *ast.AssignStmt:
			for _, l := range node.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
					n++
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(node.X).(*ast.Ident); ok && info.ObjectOf(id) == v {
				n += 2
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(node.X).(*ast.Ident); ok && node.Op == token.AND && info.ObjectOf(id) == v {
				n += 2
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{node.Key, node.Value} {
				if id, ok := e.(*ast.Ident); ok && info.ObjectOf(id) == v {
					n += 2
				}
			}
		}
		return true
	})
	return n > allowed
}

// decl is where a local variable is declared: the body of its function
// and, for a parameter, its index (-1 otherwise); fn is the declaration
// when the function is not a literal.
type decl struct {
	body  *ast.BlockStmt
	param int
	fn    *ast.FuncDecl
}

// declaring finds the innermost function declaration or literal that
// declares v.
func (g *globber) declaring(v *types.Var) decl {
	if d, ok := g.decls2[v]; ok {
		return d
	}
	d := decl{param: -1}
	pos := v.Pos()
	for _, f := range g.files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || pos < n.Pos() || pos >= n.End() {
				return false
			}
			var ft *ast.FuncType
			var body *ast.BlockStmt
			switch n := n.(type) {
			case *ast.FuncDecl:
				ft, body = n.Type, n.Body
				if body != nil {
					d = decl{body: body, param: -1, fn: n}
				}
			case *ast.FuncLit:
				ft, body = n.Type, n.Body
				d = decl{body: body, param: -1}
			default:
				return true
			}
			if body == nil || ft.Params == nil || pos < ft.Params.Pos() || pos >= ft.Params.End() {
				return true
			}
			i := 0
			for _, field := range ft.Params.List {
				if len(field.Names) == 0 {
					i++
				}
				for _, id := range field.Names {
					if g.info.Defs[id] == v {
						d.param = i
					}
					i++
				}
			}
			return false
		})
	}
	if g.decls2 == nil {
		g.decls2 = map[*types.Var]decl{}
	}
	g.decls2[v] = d
	return d
}

func (g *globber) declOf(fn *types.Func) *ast.FuncDecl {
	if g.decls == nil {
		g.decls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range g.files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if obj, ok := g.info.Defs[fd.Name].(*types.Func); ok {
						g.decls[obj] = fd
					}
				}
			}
		}
	}
	return g.decls[fn]
}
