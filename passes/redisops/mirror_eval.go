package redisops

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// A mirror interface with no Eval: the owner-checked release needs one,
// so the fix gives it one. The project's interface is a subset of a
// client's; the values that meet it are the client itself (whose Eval is
// there already) or the project's wrappers of a client. The fix adds
//
//	Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd
//
// to the interface (the command value of the go-redis package its Del
// replies with; (any, error) when its methods return plain values), and
// to every wrapper of the module whose values meet the interface a
// method that runs the script on the client it wraps:
//
//	func (c *Client) Eval(ctx context.Context, script string, keys []string, args ...any) *redis.Cmd {
//		return c.rdb.Eval(ctx, script, keys, args...)
//	}
//
// The types whose values meet the interface are read from every typed
// expression of the packages that can convert a value to it: the
// interface's own package when nothing outside it can reach the
// interface, and otherwise every package of the module, which only the
// host that loads them all has (lvconfig.Module). Each must be a type of
// the client that has an Eval of exactly that signature, or a struct of
// the module with one field of a go-redis client (or client interface)
// whose Eval fits; else there is no fix, and the reason names the type
// (a test's fake of the interface wraps no client).

type evalAddKey struct {
	t   types.Type
	del *types.Func
}

// evalAdd is the plan: the Eval the edits declare, or why there is none.
type evalAdd struct {
	mm    *mirrorMethod
	edits []analysis.TextEdit
	why   string
}

// addedEval is the Eval that t gets for the release of o by del, with
// the edits that declare it, or why there is none.
func (t *mirrorType) addedEval(pass *analysis.Pass, o *Op, del *mirrorMethod) (*mirrorMethod, []analysis.TextEdit, string) {
	p := shared(o.res, evalAddKey{t.key, del.fn}, func() any {
		var mod *lvconfig.Module
		if o.res != nil {
			mod = o.res.module
		}
		return planEval(pass, mod, t, del)
	}).(*evalAdd)
	return p.mm, p.edits, p.why
}

// evalView is one package whose declarations and conversions the plan
// reads.
type evalView struct {
	info  *types.Info
	pkg   *types.Package
	files []*ast.File
	read  func(string) ([]byte, error)
}

func planEval(pass *analysis.Pass, mod *lvconfig.Module, t *mirrorType, del *mirrorMethod) *evalAdd {
	no := func(format string, args ...any) *evalAdd { return &evalAdd{why: fmt.Sprintf(format, args...)} }
	iname := typeName(t.key)
	noEval := iname + " has no Eval"
	named, ok := t.key.(*types.Named)
	if !ok || !types.IsInterface(named) || named.TypeParams().Len() > 0 || named.Obj().Pkg() == nil {
		return no("%s", noEval)
	}
	if obj, _, _ := types.LookupFieldOrMethod(named, false, nil, "Eval"); obj != nil {
		return no("%s", noEval)
	}
	ipkg := named.Obj().Pkg()

	// The packages to read: the interface's own, when no other package
	// can reach it (and its test files are loaded), else the module's.
	self := evalView{pass.TypesInfo, pass.Pkg, pass.Files, pass.ReadFile}
	var views []evalView
	if ipkg == pass.Pkg && !exposed(ipkg, named) && testsLoaded(pass) {
		views = []evalView{self}
	} else {
		pkgs, complete := mod.Packages()
		if !complete {
			return no("%s, and not every package that can implement it is loaded", noEval)
		}
		views = []evalView{self}
		for _, mp := range pkgs {
			if mp.Types == nil || mp.Info == nil || mp.Fset != pass.Fset || mp.Types == pass.Pkg {
				continue
			}
			views = append(views, evalView{mp.Info, mp.Types, mp.Files, os.ReadFile})
		}
	}
	fset := pass.Fset
	declIn := func(pos token.Pos) (*ast.File, evalView, bool) {
		for _, v := range views {
			for _, f := range v.files {
				if f.FileStart <= pos && pos < f.FileEnd {
					return f, v, true
				}
			}
		}
		return nil, evalView{}, false
	}
	inModule := func(p *types.Package) bool {
		for _, v := range views {
			if v.pkg.Path() == p.Path() || v.pkg.Path() == p.Path()+"_test" {
				return true
			}
		}
		return false
	}

	// The interface's declaration.
	ifile, iview, ok := declIn(named.Obj().Pos())
	if !ok {
		return no("%s, and its declaration is not loaded", noEval)
	}
	var spec *ast.TypeSpec
	ast.Inspect(ifile, func(n ast.Node) bool {
		if s, ok := n.(*ast.TypeSpec); ok && s.Name.Pos() == named.Obj().Pos() {
			spec = s
		}
		return spec == nil
	})
	it, ok := specInterface(spec)
	if !ok || len(it.Methods.List) == 0 {
		return no("%s", noEval)
	}
	var ictx string // the context parameter's type, as the interface writes it
	if del.ctx {
		if ictx = ctxParamText(fset, ifaceMethod(it, del.fn.Name())); ictx == "" {
			return no("%s", noEval)
		}
	}

	// The signature: the go-redis Eval's when the interface replies with
	// the client's command values, else plain values.
	params := []*types.Var{}
	if del.ctx {
		params = append(params, types.NewParam(token.NoPos, nil, "ctx", del.fn.Signature().Params().At(0).Type()))
	}
	empty := types.NewInterfaceType(nil, nil)
	params = append(params,
		types.NewParam(token.NoPos, nil, "script", types.Typ[types.String]),
		types.NewParam(token.NoPos, nil, "keys", types.NewSlice(types.Typ[types.String])),
		types.NewParam(token.NoPos, nil, "args", types.NewSlice(empty)))
	var results *types.Tuple
	var cmdPkg *types.Package // the go-redis package of the reply, or nil for plain values
	switch {
	case del.shape == shapeCmd && del.family != "":
		n, _ := derefNamed(del.fn.Signature().Results().At(0).Type())
		cmdPkg = n.Obj().Pkg()
		cmd, ok := cmdPkg.Scope().Lookup("Cmd").(*types.TypeName)
		if !ok {
			return no("%s", noEval)
		}
		results = types.NewTuple(types.NewParam(token.NoPos, nil, "", types.NewPointer(cmd.Type())))
	case del.shape == shapePlain:
		results = types.NewTuple(types.NewParam(token.NoPos, nil, "", empty), types.NewParam(token.NoPos, nil, "", types.Universe.Lookup("error").Type()))
	default:
		return no("%s", noEval)
	}
	sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), results, true)

	// The types of the values converted to the interface.
	var cands typeutil.Map
	for _, v := range views {
		convertedTo(v.info, v.files, named, func(t types.Type) { cands.Set(t, true) })
	}
	var types_ []types.Type
	cands.Iterate(func(k types.Type, _ any) { types_ = append(types_, k) })
	slices.SortFunc(types_, func(a, b types.Type) int { return strings.Compare(a.String(), b.String()) })

	p := &evalAdd{}
	done := map[*types.Named]bool{}
	for _, ct := range types_ {
		if hasMethod(ct, "Eval") {
			if sel := types.NewMethodSet(ct).Lookup(nil, "Eval"); sel != nil && types.Identical(sel.Obj().Type(), sig) {
				continue // the client's own Eval
			}
			return no("%s, and %s has an Eval of another signature", noEval, shortType(ct))
		}
		tn, ok := derefNamed(ct)
		if !ok || types.IsInterface(tn) || tn.Obj().Pkg() == nil || !inModule(tn.Obj().Pkg()) {
			return no("%s, and %s, which meets it, has none", noEval, shortType(ct))
		}
		tn = tn.Origin()
		if done[tn] {
			continue
		}
		done[tn] = true
		edit, why := wrapperEval(fset, declIn, tn, del, sig, cmdPkg)
		if why != "" {
			return no("%s: %s", noEval, why)
		}
		p.edits = append(p.edits, edit)
	}

	// The interface's method, on a line of its own before the brace.
	tf := fset.File(it.Methods.Closing)
	last := it.Methods.List[len(it.Methods.List)-1]
	if tf == nil || tf.Line(last.End()) >= tf.Line(it.Methods.Closing) {
		return no("%s", noEval)
	}
	indent := indentAt(fset, iview.read, last.Pos())
	rtext, ok := resultText(ifile, iview.info, cmdPkg)
	if !ok {
		return no("%s, and %s does not import go-redis by name", noEval, filepath.Base(tf.Name()))
	}
	line := fmt.Sprintf("%sEval(%s) %s\n", indent, paramText(ictx, anyText(iview.info, ifile)), rtext)
	at := tf.LineStart(tf.Line(it.Methods.Closing))
	p.edits = append(p.edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(line)})
	slices.SortFunc(p.edits, func(a, b analysis.TextEdit) int { return cmp.Compare(a.Pos, b.Pos) })
	p.edits = slices.CompactFunc(p.edits, func(a, b analysis.TextEdit) bool {
		return a.Pos == b.Pos && a.End == b.End && string(a.NewText) == string(b.NewText)
	})

	fn := types.NewFunc(token.NoPos, ipkg, "Eval", sig)
	p.mm = &mirrorMethod{cmd: "EVAL", ctx: del.ctx, layout: "sKa", fn: fn}
	if !p.mm.reply(results) {
		return no("%s", noEval)
	}
	return p
}

// wrapperEval is the Eval method of the module's type tn, which meets
// the interface: it runs the script on the one go-redis client tn wraps
// in a field. It is declared after tn's method named as the interface's
// delete.
func wrapperEval(fset *token.FileSet, declIn func(token.Pos) (*ast.File, evalView, bool), tn *types.Named, del *mirrorMethod, sig *types.Signature, cmdPkg *types.Package) (analysis.TextEdit, string) {
	var none analysis.TextEdit
	name := tn.Obj().Name()
	where := name
	if tf := fset.File(tn.Obj().Pos()); tf != nil {
		where = fmt.Sprintf("%s (%s)", name, filepath.Base(tf.Name()))
	}
	if tn.TypeParams().Len() > 0 {
		return none, where + " is generic"
	}
	st, ok := tn.Underlying().(*types.Struct)
	if !ok {
		return none, where + " wraps no go-redis client"
	}
	var field *types.Var
	for f := range st.Fields() {
		if f.Embedded() {
			continue
		}
		ev := methodOf(f.Type(), nil, "Eval")
		if ev == nil || ev.Pkg() == nil || goRedisPaths[ev.Pkg().Path()] == "" || !evalFits(ev.Signature(), sig, cmdPkg) {
			continue
		}
		if field != nil {
			return none, where + " wraps two clients"
		}
		field = f
	}
	if field == nil {
		return none, where + " wraps no go-redis client"
	}
	dm := methodOf(tn, nil, del.fn.Name())
	if dm == nil {
		return none, where + " has no " + del.fn.Name()
	}
	if r := RecvType(dm); r == nil || r != tn.Obj() {
		return none, fmt.Sprintf("%s's %s is promoted", where, del.fn.Name())
	}
	file, view, ok := declIn(dm.Pos())
	if !ok {
		return none, where + " is not loaded"
	}
	var decl *ast.FuncDecl
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Pos() == dm.Pos() {
			decl = fd
		}
	}
	if decl == nil || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return none, where + "'s " + del.fn.Name() + " has no named receiver"
	}
	recv := decl.Recv.List[0].Names[0].Name
	switch recv {
	case "_", "ctx", "script", "keys", "args":
		return none, where + "'s receiver is named " + recv
	}
	ctx := ""
	if del.ctx {
		if ctx = ctxParamText(fset, decl.Type); ctx == "" {
			return none, where + "'s " + del.fn.Name() + " takes no context"
		}
	}
	rtext, ok := resultText(file, view.info, cmdPkg)
	if !ok {
		return none, fmt.Sprintf("%s does not import go-redis by name", filepath.Base(fset.File(file.Pos()).Name()))
	}
	call := fmt.Sprintf("%s.%s.Eval(%sscript, keys, args...)", recv, field.Name(), map[bool]string{true: "ctx, "}[del.ctx])
	if cmdPkg == nil {
		call += ".Result()"
	}
	text := fmt.Sprintf("\n\n// Eval runs a Lua script on the client, for the lock releases that\n// check the token and delete in one step.\nfunc (%s %s) Eval(%s) %s {\n\treturn %s\n}",
		recv, typeText(fset, decl.Recv.List[0].Type), paramText(ctx, anyText(view.info, file)), rtext, call)
	return analysis.TextEdit{Pos: decl.End(), End: decl.End(), NewText: []byte(text)}, ""
}

// evalFits reports whether a client's Eval (ev) can serve as the body of
// the Eval sig: the same parameters, and the same reply (a command
// value), or one whose Result gives sig's plain values.
func evalFits(ev, sig *types.Signature, cmdPkg *types.Package) bool {
	if !types.Identical(ev.Params(), sig.Params()) || ev.Variadic() != sig.Variadic() {
		return false
	}
	if cmdPkg != nil {
		return types.Identical(ev.Results(), sig.Results())
	}
	if ev.Results().Len() != 1 {
		return false
	}
	res := methodOf(ev.Results().At(0).Type(), nil, "Result")
	return res != nil && types.Identical(res.Signature().Results(), sig.Results())
}

func hasMethod(t types.Type, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	return obj != nil
}

// specInterface is the interface type a type spec declares.
func specInterface(spec *ast.TypeSpec) (*ast.InterfaceType, bool) {
	if spec == nil || spec.Assign.IsValid() || spec.TypeParams != nil {
		return nil, false
	}
	it, ok := spec.Type.(*ast.InterfaceType)
	return it, ok && it.Methods != nil
}

// ifaceMethod is the method name declared in it, or nil.
func ifaceMethod(it *ast.InterfaceType, name string) *ast.FuncType {
	for _, f := range it.Methods.List {
		if len(f.Names) == 1 && f.Names[0].Name == name {
			ft, _ := f.Type.(*ast.FuncType)
			return ft
		}
	}
	return nil
}

// ctxParamText is the source text of ft's first parameter's type.
func ctxParamText(fset *token.FileSet, ft *ast.FuncType) string {
	if ft == nil || ft.Params == nil || len(ft.Params.List) == 0 {
		return ""
	}
	return typeText(fset, ft.Params.List[0].Type)
}

func typeText(fset *token.FileSet, e ast.Expr) string { return fixes.Text(fset, e) }

func paramText(ctx, anyT string) string {
	s := "script string, keys []string, args ..." + anyT
	if ctx != "" {
		s = "ctx " + ctx + ", " + s
	}
	return s
}

// resultText is Eval's result list as file writes it: the go-redis
// package's *Cmd under the name file imports it by, or plain values.
func resultText(file *ast.File, info *types.Info, cmdPkg *types.Package) (string, bool) {
	if cmdPkg == nil {
		return "(" + anyText(info, file) + ", error)", true
	}
	for _, spec := range file.Imports {
		if p, err := strconv.Unquote(spec.Path.Value); err != nil || p != cmdPkg.Path() {
			continue
		}
		pn := info.PkgNameOf(spec)
		if pn == nil || pn.Name() == "_" || pn.Name() == "." {
			continue
		}
		return "*" + pn.Name() + ".Cmd", true
	}
	return "", false
}

// anyText is "any" where file's Go version has it, else "interface{}".
func anyText(info *types.Info, file *ast.File) string {
	v := info.FileVersions[file]
	if v == "" || versionAtLeast(v, 18) {
		return "any"
	}
	return "interface{}"
}

// versionAtLeast reports whether the Go version v (go1.N[.M]) is at
// least go1.minor.
func versionAtLeast(v string, minor int) bool {
	rest, ok := strings.CutPrefix(v, "go1.")
	if !ok {
		return true
	}
	if i := strings.IndexAny(rest, ".rcbeta"); i >= 0 {
		rest = rest[:i]
	}
	n, err := strconv.Atoi(rest)
	return err != nil || n >= minor
}

// indentAt is the leading white space of the line holding pos, or a
// tab when the file cannot be read.
func indentAt(fset *token.FileSet, read func(string) ([]byte, error), pos token.Pos) string {
	if indent, ok := astx.LineIndent(fset, read, pos); ok {
		return indent
	}
	return "\t"
}

// shortType names t as a message does: its name, with the pointer.
func shortType(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// exposed reports whether another package can reach the interface
// named, declared in pkg: it is exported, or an exported declaration of
// pkg mentions it (a parameter of an exported constructor, a field of an
// exported type, a method of a type an exported function returns).
func exposed(pkg *types.Package, named *types.Named) bool {
	if named.Obj().Exported() {
		return true
	}
	seen := map[types.Type]bool{}
	var mentions func(t types.Type) bool
	mentions = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			if t.Origin() == named {
				return true
			}
			if t.Obj().Pkg() != pkg {
				for a := range t.TypeArgs().Types() {
					if mentions(a) {
						return true
					}
				}
				return false
			}
			for m := range t.Methods() {
				if m.Exported() && mentions(m.Type()) {
					return true
				}
			}
			return mentions(t.Underlying())
		case *types.Pointer:
			return mentions(t.Elem())
		case *types.Slice:
			return mentions(t.Elem())
		case *types.Array:
			return mentions(t.Elem())
		case *types.Chan:
			return mentions(t.Elem())
		case *types.Map:
			return mentions(t.Key()) || mentions(t.Elem())
		case *types.Signature:
			return mentions(t.Params()) || mentions(t.Results())
		case *types.Tuple:
			for v := range t.Variables() {
				if mentions(v.Type()) {
					return true
				}
			}
		case *types.Struct:
			for f := range t.Fields() {
				if (f.Exported() || f.Embedded()) && mentions(f.Type()) {
					return true
				}
			}
		case *types.Interface:
			for m := range t.Methods() {
				if m.Exported() && mentions(m.Type()) {
					return true
				}
			}
		}
		return false
	}
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		if obj := scope.Lookup(n); obj.Exported() && mentions(obj.Type()) {
			return true
		}
	}
	return false
}

// testsLoaded reports whether the pass has the package's test files, or
// its directory has none.
func testsLoaded(pass *analysis.Pass) bool {
	dir := ""
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if strings.HasSuffix(name, "_test.go") {
			return true
		}
		dir = filepath.Dir(name)
	}
	if dir == "" {
		return false
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), "_test.go") {
			return false
		}
	}
	return true
}

// convertedTo calls add with the type of every value that files convert
// to the interface named, or to an interface that embeds it: assigned,
// passed, returned, sent, put in a composite literal, converted
// explicitly, or given as the type argument of a type parameter that
// named constrains.
func convertedTo(info *types.Info, files []*ast.File, named *types.Named, add func(types.Type)) {
	memo := map[types.Type]bool{}
	var target func(t types.Type) bool
	target = func(t types.Type) bool {
		if t == nil {
			return false
		}
		t = types.Unalias(t)
		if r, ok := memo[t]; ok {
			return r
		}
		memo[t] = false
		r := false
		if n, ok := t.(*types.Named); ok && n.Origin() == named {
			r = true
		} else if it, ok := t.Underlying().(*types.Interface); ok {
			for e := range it.EmbeddedTypes() {
				if target(e) {
					r = true
				}
			}
		}
		memo[t] = r
		return r
	}
	convT := func(from, to types.Type) {
		if from == nil || !target(to) || types.Identical(from, to) {
			return
		}
		if b, ok := from.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return
		}
		add(from)
	}
	conv := func(e ast.Expr, to types.Type) {
		if e != nil && to != nil {
			convT(info.TypeOf(e), to)
		}
	}
	// many converts a list of values (or one call's results) to the
	// types of to.
	many := func(es []ast.Expr, to func(i int) types.Type, n int) {
		if len(es) == n {
			for i, e := range es {
				conv(e, to(i))
			}
			return
		}
		if len(es) == 1 {
			if tup, ok := info.TypeOf(es[0]).(*types.Tuple); ok && tup.Len() == n {
				for i := range n {
					convT(tup.At(i).Type(), to(i))
				}
			}
		}
	}
	for id, inst := range info.Instances {
		var tparams *types.TypeParamList
		switch obj := info.Uses[id].(type) {
		case *types.Func:
			tparams = obj.Signature().TypeParams()
		case *types.TypeName:
			if n, ok := types.Unalias(obj.Type()).(*types.Named); ok {
				tparams = n.TypeParams()
			}
		}
		for i := range inst.TypeArgs.Len() {
			if tparams != nil && i < tparams.Len() && target(tparams.At(i).Constraint()) {
				add(inst.TypeArgs.At(i))
			}
		}
	}
	var walk func(root ast.Node, sig *types.Signature)
	walk = func(root ast.Node, sig *types.Signature) {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body != nil {
					s, _ := info.Defs[n.Name].Type().(*types.Signature)
					walk(n.Body, s)
				}
				return false
			case *ast.FuncLit:
				s, _ := info.TypeOf(n).(*types.Signature)
				walk(n.Body, s)
				return false
			case *ast.ReturnStmt:
				if sig != nil {
					many(n.Results, func(i int) types.Type { return sig.Results().At(i).Type() }, sig.Results().Len())
				}
			case *ast.AssignStmt:
				many(n.Rhs, func(i int) types.Type { return info.TypeOf(n.Lhs[i]) }, len(n.Lhs))
			case *ast.ValueSpec:
				if n.Type != nil {
					t := info.TypeOf(n.Type)
					many(n.Values, func(int) types.Type { return t }, len(n.Names))
				}
			case *ast.SendStmt:
				if ch, ok := info.TypeOf(n.Chan).Underlying().(*types.Chan); ok {
					conv(n.Value, ch.Elem())
				}
			case *ast.CallExpr:
				if tv, ok := info.Types[n.Fun]; ok && tv.IsType() {
					if len(n.Args) == 1 {
						conv(n.Args[0], tv.Type)
					}
					break
				}
				fs, ok := info.TypeOf(n.Fun).(*types.Signature)
				if !ok {
					break
				}
				np := fs.Params().Len()
				param := func(i int) types.Type {
					if fs.Variadic() && i >= np-1 {
						last := fs.Params().At(np - 1).Type()
						if n.Ellipsis.IsValid() {
							return last
						}
						if sl, ok := last.(*types.Slice); ok {
							return sl.Elem()
						}
						return nil
					}
					if i < np {
						return fs.Params().At(i).Type()
					}
					return nil
				}
				if len(n.Args) == 1 && np > 1 {
					many(n.Args, param, np)
				} else {
					for i, a := range n.Args {
						conv(a, param(i))
					}
				}
			case *ast.CompositeLit:
				t := info.TypeOf(n)
				if t == nil {
					break
				}
				switch u := t.Underlying().(type) {
				case *types.Struct:
					for i, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if id, ok := kv.Key.(*ast.Ident); ok {
								if f, ok := info.Uses[id].(*types.Var); ok {
									conv(kv.Value, f.Type())
								}
							}
						} else if i < u.NumFields() {
							conv(e, u.Field(i).Type())
						}
					}
				case *types.Slice, *types.Array, *types.Map:
					var key, elem types.Type
					switch u := u.(type) {
					case *types.Slice:
						elem = u.Elem()
					case *types.Array:
						elem = u.Elem()
					case *types.Map:
						key, elem = u.Key(), u.Elem()
					}
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if key != nil {
								conv(kv.Key, key)
							}
							conv(kv.Value, elem)
						} else {
							conv(e, elem)
						}
					}
				}
			}
			return true
		})
	}
	for _, f := range files {
		walk(f, nil)
	}
}
