package redisops

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// go-redis: how a command's reply is read, and the owner-checked release
// that replaces Del(ctx, key): DelExArgs IFEQ (Redis ≥ 8.4) or the
// compare-and-delete script, run with the client's Script type.

func (goRedis) reply(info *types.Info, o *Op) (ast.Expr, *types.Var) {
	if _, _, ok := accessor(o.Cursor); ok {
		return replyAt(info, o.Cursor)
	}
	return cmdVarReply(info, o)
}

// replyAt reads the reply of the command value cur yields, where an
// accessor is called on it in place: .Val() (in place or into a
// variable), or a pair's first value (v, err := ….Result(), or a typed
// reader of a string reply: .Int64(), .Bytes(), …).
func replyAt(info *types.Info, cur inspector.Cursor) (ast.Expr, *types.Var) {
	sel, acc, ok := accessor(cur)
	if !ok {
		return nil, nil
	}
	switch sel.Sel.Name {
	case "Val":
		if obj := assignedTo(info, acc); obj != nil {
			v, _ := obj.(*types.Var)
			return nil, v
		}
		return acc.Node().(*ast.CallExpr), nil
	case "Result", "Text", // Text: a *Cmd's reply (rdb.Do(ctx, "get", key)) as a string
		"Int", "Int64", "Uint64", "Float32", "Float64", "Bool", "Bytes":
		if v := pairFirst(info, acc.Parent().Node()); v != nil {
			return nil, v
		}
	}
	return nil, nil
}

// cmdVarReply reads the reply of o when its command value is kept in a
// local variable (cmd := rdb.Get(ctx, k)): the first read of the value
// through it after o, in o's function (cmd.Val(), v := cmd.Val(), v, err
// := cmd.Result()), skipping reads of the error alone. None when the
// variable is written again or used otherwise before that read.
func cmdVarReply(info *types.Info, o *Op) (ast.Expr, *types.Var) {
	obj := assignedTo(info, o.Cursor)
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || o.Func == nil {
		return nil, nil
	}
	var fcur inspector.Cursor
	for c := range o.Cursor.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		fcur = c
		break
	}
	if fcur.Node() == nil {
		return nil, nil
	}
	for cur := range fcur.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if id.Pos() <= o.Call.End() || info.Uses[id] != v {
			continue
		}
		if innermost(cur, (*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) != fcur.Node() {
			return nil, nil // read in a closure, at another time
		}
		sel, _, ok := accessor(cur)
		if !ok {
			return nil, nil // written again, or handed on
		}
		if sel.Sel.Name == "Err" {
			continue
		}
		return replyAt(info, cur)
	}
	return nil, nil
}

func (g goRedis) releases(pass *analysis.Pass, o *Op, tok string, opts ReleaseOptions) []Release {
	fn, ok := typeutil.Callee(pass.TypesInfo, o.Call).(*types.Func)
	if !ok || fn.Pkg() == nil || o.Recv == nil {
		return nil
	}
	if fn.Name() == "Do" && o.Method != "DEL" && o.Method != "UNLINK" {
		// A delete sent by name that replies something else than a count
		// (GETDEL: the value) is not rewritten, as in redigo.
		return nil
	}
	file := fileAt(pass, o.res, o.Call.Pos())
	recvT := pass.TypesInfo.TypeOf(o.Recv)
	if file == nil || recvT == nil {
		return nil
	}
	w := releaseWriter{pass: pass, o: o, fn: fn, file: file, recvT: recvT, token: tok, spec: unlockSpec(opts)}
	if takesContext(fn) {
		w.ctx = fixes.Text(pass.Fset, o.Call.Args[0]) + ", "
	}
	w.key = fixes.Text(pass.Fset, o.Keys[0])
	w.recv = fixes.Text(pass.Fset, o.Recv)
	var out []Release
	if opts.DelEx && !opts.Prefix {
		if edits, ok := w.delEx(); ok {
			out = append(out, Release{Kind: ReleaseDelEx, Edits: edits})
		}
	}
	if edits, ok := w.script(g); ok {
		out = append(out, Release{Kind: ReleaseScript, Edits: edits})
	} else if edits, ok := w.eval(); ok && !opts.Prefix && !w.clientNamed() {
		out = append(out, Release{Kind: ReleaseScript, Edits: edits})
	}
	return out
}

// clientNamed reports whether a file of the package imports the delete's
// client package by name, where the script variable can be declared.
func (w *releaseWriter) clientNamed() bool {
	for _, f := range scanOf(w.pass, w.o.res).byName {
		if _, ok := importedAs(w.pass, f, w.fn.Pkg().Path(), f.End()); ok {
			return true
		}
	}
	return false
}

// eval rewrites Del(ctx, key) into the receiver's own
// Eval(ctx, unlockLua, []string{key}, token), the script's source in a
// package-level constant (mirror_release.go): for a file that cannot name
// the client package to make a Script (the client reached through a
// project's alias of its interface).
func (w *releaseWriter) eval() ([]analysis.TextEdit, bool) {
	if w.o.Scope.Kind != Direct {
		return nil, false
	}
	m := methodOf(w.recvT, w.fn.Pkg(), "Eval")
	if m == nil || m.Pkg() == nil || m.Pkg().Path() != w.fn.Pkg().Path() || takesContext(m) != takesContext(w.fn) {
		return nil, false
	}
	sig := m.Signature()
	i := 0
	if takesContext(m) {
		i = 1
	}
	if sig.Params().Len() != i+3 || !sig.Variadic() || sig.Results().Len() != 1 ||
		!isString(sig.Params().At(i).Type()) || !types.AssignableTo(types.NewSlice(types.Typ[types.String]), sig.Params().At(i+1).Type()) {
		return nil, false
	}
	edits, ok := keepReply(w.o, w.fn.Signature().Results().At(0).Type(), sig.Results().At(0).Type(), "Int64")
	if !ok {
		return nil, false
	}
	name, decl, ok := unlockSrc(w.pass, w.o, w.file)
	if !ok {
		return nil, false
	}
	text := fmt.Sprintf("%s.Eval(%s%s, []string{%s}, %s)", w.recv, w.ctx, name, w.key, w.token)
	edits = append(edits, fixes.Replace(w.o.Call, text))
	if decl != nil {
		edits = append(edits, *decl)
	}
	return edits, true
}

type releaseWriter struct {
	pass  *analysis.Pass
	o     *Op
	fn    *types.Func // the delete method
	file  *ast.File
	recvT types.Type
	// source text: "ctx, " or "", the key, the receiver, the token
	ctx, key, recv, token string
	spec                  unlockScriptSpec // the script a script release runs
}

// delEx rewrites Del(ctx, key) into
// DelExArgs(ctx, key, redis.DelExArgs{Mode: "IFEQ", MatchValue: token})
// when the receiver has that method and it returns what Del returns.
func (w *releaseWriter) delEx() ([]analysis.TextEdit, bool) {
	m := methodOf(w.recvT, w.fn.Pkg(), "DelExArgs")
	if m == nil || m.Pkg().Path() != w.fn.Pkg().Path() || takesContext(m) != takesContext(w.fn) {
		return nil, false
	}
	sig, delSig := m.Signature(), w.fn.Signature()
	n := sig.Params().Len()
	if n < 2 || sig.Variadic() || !sameResults(sig, delSig) {
		return nil, false
	}
	args, ok := types.Unalias(sig.Params().At(n - 1).Type()).(*types.Named)
	if !ok || args.Obj().Pkg() == nil {
		return nil, false
	}
	st, ok := args.Underlying().(*types.Struct)
	if !ok || !hasField(st, "Mode") || !hasField(st, "MatchValue") {
		return nil, false
	}
	pkg, ok := importedAs(w.pass, w.file, args.Obj().Pkg().Path(), w.o.Call.Pos())
	if !ok {
		return nil, false
	}
	text := fmt.Sprintf("%s.DelExArgs(%s%s, %s.%s{Mode: %q, MatchValue: %s})", w.recv, w.ctx, w.key, pkg, args.Obj().Name(), "IFEQ", w.token)
	return []analysis.TextEdit{fixes.Replace(w.o.Call, text)}, true
}

func (w *releaseWriter) script(g goRedis) ([]analysis.TextEdit, bool) {
	name := "Run"
	if w.o.Scope.Kind != Direct {
		name = "Eval"
	}
	ctor, run, ok := goRedisScriptMethod(w.fn.Pkg(), name, w.fn, w.recvT)
	if !ok {
		return nil, false
	}
	edits, ok := keepReply(w.o, w.fn.Signature().Results().At(0).Type(), run.Signature().Results().At(0).Type(), "Int64")
	if !ok || !w.batchUnread() {
		return nil, false
	}
	v, decl, ok := w.unlockVar(g, ctor)
	if !ok {
		return nil, false
	}
	text := fmt.Sprintf("%s.%s(%s%s, []string{%s}, %s)", v, name, w.ctx, w.recv, w.key, w.token)
	edits = append(edits, fixes.Replace(w.o.Call, text))
	if decl != nil {
		edits = append(edits, *decl)
	}
	return edits, true
}

// batchUnread reports, for a delete queued in a pipeline or transaction,
// that nobody reads the batch's command list, where the script's *Cmd
// would stand where code expects the delete's *IntCmd: the batch is opened
// by Pipelined/TxPipelined whose command list is dropped. Direct deletes
// pass.
func (w *releaseWriter) batchUnread() bool {
	if w.o.Scope.Kind == Direct {
		return true
	}
	for c := range w.o.Cursor.Enclosing((*ast.CallExpr)(nil)) {
		if c.Node() != w.o.Scope.Node {
			continue
		}
		if _, ok := c.Node().(*ast.CallExpr).Fun.(*ast.SelectorExpr); !ok {
			return false
		}
		switch p := c.Parent().Node().(type) {
		case *ast.ExprStmt:
			return true
		case *ast.AssignStmt:
			id, ok := p.Lhs[0].(*ast.Ident)
			return ok && id.Name == "_" && len(p.Rhs) == 1
		}
		return false
	}
	return false // the value form: the pipeline is flushed elsewhere
}

// unlockVar finds a package-level compare-and-delete script variable of
// this client visible at the delete, or names a new one and returns the
// edit that declares it. What does not depend on the delete's position is
// planned once per package (unlockPlan) and shared by every fix.
func (w *releaseWriter) unlockVar(g goRedis, ctor *types.Func) (string, *analysis.TextEdit, bool) {
	inTest := isTestFile(w.pass, w.file)
	p := shared(w.o.res, unlockKey{ctor, inTest, w.spec.name}, func() any { return planUnlock(w.pass, w.o.res, g, ctor, inTest, w.spec) }).(*unlockPlan)
	if !p.ok {
		return "", nil, false
	}
	obj := resolveAt(w.pass, w.file, p.name, w.o.Call.Pos())
	if p.existing != nil {
		// Shadowed here: no fix rather than a second variable.
		return p.name, nil, obj == p.existing
	}
	if obj != nil {
		return "", nil, false
	}
	return p.name, p.edit, true
}

type unlockKey struct {
	ctor   *types.Func
	inTest bool
	name   string // the spec's base name: one plan per script
}

// unlockPlan is the package's compare-and-delete script variable for one
// client: an existing one, or the name and declaration of a new one.
type unlockPlan struct {
	name     string
	existing types.Object
	edit     *analysis.TextEdit
	ok       bool
}

func planUnlock(pass *analysis.Pass, res *Result, g goRedis, ctor *types.Func, inTest bool, spec unlockScriptSpec) *unlockPlan {
	info := pass.TypesInfo
	scan := scanOf(pass, res)
	for _, v := range scan.vars[ctor.Pkg().Path()] {
		if !inTest && isTestFile(pass, v.file) {
			continue
		}
		src, ok := g.scriptCtor(v.call, v.fn)
		if !ok {
			continue
		}
		if s := scriptText(pass, res, src); s != nil && spec.like(*s) {
			return &unlockPlan{name: v.id.Name, existing: info.Defs[v.id], ok: true}
		}
	}

	// A new variable, declared after the imports of the first file (by
	// name) that imports the client by name: every fix in the package
	// declares it in the same place, so fixes applied together merge.
	var pkgName string
	var after ast.Node
	for _, f := range scan.byName {
		if !inTest && isTestFile(pass, f) || ast.IsGenerated(f) {
			continue
		}
		var last *ast.GenDecl
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				last = gd
			}
		}
		if last == nil {
			continue
		}
		if n, ok := importedAs(pass, f, ctor.Pkg().Path(), last.End()); ok {
			pkgName, after = n, last
			break
		}
	}
	if after == nil {
		return &unlockPlan{}
	}
	// The name depends on the package only, so that every fix picks the
	// same one; where a local declaration shadows it, there is no fix.
	// A package that uses several client packages gets one variable per
	// client: unlockScriptV8, unlockScriptV9, ….
	base := spec.name
	if scriptClients(pass, scan.byName, inTest) > 1 {
		fam := goRedisPaths[ctor.Pkg().Path()]
		fam = fam[strings.LastIndex(fam, "/")+1:]
		base += strings.ToUpper(fam[:1]) + fam[1:]
	}
	name := base
	for i := 2; scan.taken(pass, name); i++ {
		name = base + strconv.Itoa(i)
	}
	doc := "// " + strings.ReplaceAll(name+strings.TrimPrefix(spec.doc, spec.name), "\n", "\n// ")
	text := fmt.Sprintf("\n\n%s\nvar %s = %s.%s(`%s`)", doc, name, pkgName, ctor.Name(), spec.src)
	return &unlockPlan{name: name, edit: &analysis.TextEdit{Pos: after.End(), End: after.End(), NewText: []byte(text)}, ok: true}
}
