package redisops

// Owner-checked release: the client idiom that checks need to read a
// command's reply and to rewrite an unconditional DEL of a lock key into a
// delete that happens only while the key still holds the holder's token.
// Both are optional adapter capabilities; ops of adapters without them get
// no reply and no rewrite.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// ReleaseKind is how a rewritten release checks the owner.
type ReleaseKind uint8

const (
	// ReleaseDelEx sends the server's compare-and-delete command
	// (DELEX key IFEQ token, Redis ≥ 8.4).
	ReleaseDelEx ReleaseKind = iota + 1
	// ReleaseScript runs the compare-and-delete Lua script lua.UnlockSrc
	// from a package-level script variable (reused when the package
	// already has an equivalent one, declared otherwise).
	ReleaseScript
)

// Release is one rewrite of a delete into an owner-checked release.
type Release struct {
	Kind  ReleaseKind
	Edits []analysis.TextEdit
}

// ReleaseOptions selects the rewrites offered.
type ReleaseOptions struct {
	// DelEx also offers ReleaseDelEx when the client in use has the
	// command. The caller decides whether the server is new enough.
	DelEx bool
}

// Releases returns the rewrites of the delete o into an owner-checked
// release of its one key, comparing the key's value with token (source
// text that is valid at o and evaluates to the token the lock was
// acquired with), ReleaseDelEx first. It returns none when o deletes
// several keys or a spread slice, or when no rewrite keeps the code
// compiling (the receiver cannot run scripts, the delete's reply is used
// in a way the script's reply cannot stand in for, the client package is
// not imported by name, …).
func (o *Op) Releases(pass *analysis.Pass, token string, opts ReleaseOptions) []Release {
	r, ok := o.adapter.(releaser)
	if !ok || o.Kind != Delete || len(o.Keys) != 1 || o.KeysSpread || token == "" {
		return nil
	}
	return r.releases(pass, o, token, opts)
}

// Reply returns where the reply of o is read: the expression that yields
// the value in place (rdb.Get(ctx, k).Val()), or the variable it is
// assigned to (v := rdb.Get(ctx, k).Val(); v, err := rdb.Get(ctx, k).Result()).
// Both are nil when the value is not kept, or the adapter cannot tell.
func (o *Op) Reply(info *types.Info) (ast.Expr, *types.Var) {
	if r, ok := o.adapter.(replier); ok {
		return r.reply(info, o)
	}
	return nil, nil
}

// ReplyValue returns the expression whose value is the reply's value
// holder when e reads the value of o's reply: e itself for clients whose
// reply is the value, and, for a client whose reply is a record (a
// gomemcache *Item), the record when e reads its value field (it.Value,
// string(it.Value)). It returns nil when e does not read the value. Code
// matching the reply of Reply against an expression passes it through
// ReplyValue first.
func (o *Op) ReplyValue(info *types.Info, e ast.Expr) ast.Expr {
	if r, ok := o.adapter.(valueReader); ok {
		return r.replyValue(info, o, ast.Unparen(e))
	}
	return ast.Unparen(e)
}

// pairFirst returns the first variable of a two-valued read that is the
// only right-hand side of the assignment or declaration n (v, err := …;
// var v, err = …), or nil when n is something else or the first is _.
func pairFirst(info *types.Info, n ast.Node) *types.Var {
	var first *ast.Ident
	switch p := n.(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 2 && len(p.Rhs) == 1 {
			first, _ = p.Lhs[0].(*ast.Ident)
		}
	case *ast.ValueSpec:
		if len(p.Names) == 2 && len(p.Values) == 1 {
			first = p.Names[0]
		}
	}
	if first == nil || first.Name == "_" {
		return nil
	}
	v, _ := info.ObjectOf(first).(*types.Var)
	return v
}

// reply: go-redis commands return a *XxxCmd; Val() reads the value,
// Result() the value and the error.
func (goRedis) reply(info *types.Info, o *Op) (ast.Expr, *types.Var) {
	sel, ok := o.Cursor.Parent().Node().(*ast.SelectorExpr)
	if !ok || sel.X != o.Call {
		return nil, nil
	}
	accessor := o.Cursor.Parent().Parent()
	call, ok := accessor.Node().(*ast.CallExpr)
	if !ok || call.Fun != sel || len(call.Args) != 0 {
		return nil, nil
	}
	switch sel.Sel.Name {
	case "Val":
		if obj := assignedTo(info, accessor); obj != nil {
			v, _ := obj.(*types.Var)
			return nil, v
		}
		return call, nil
	case "Result":
		if v := pairFirst(info, accessor.Parent().Node()); v != nil {
			return nil, v
		}
	}
	return nil, nil
}

func (g goRedis) releases(pass *analysis.Pass, o *Op, tok string, opts ReleaseOptions) []Release {
	fn, ok := typeutil.Callee(pass.TypesInfo, o.Call).(*types.Func)
	if !ok || fn.Pkg() == nil || o.Recv == nil {
		return nil
	}
	file := fileAt(pass, o.res, o.Call.Pos())
	recvT := pass.TypesInfo.TypeOf(o.Recv)
	if file == nil || recvT == nil {
		return nil
	}
	w := releaseWriter{pass: pass, o: o, fn: fn, file: file, recvT: recvT, token: tok}
	if takesContext(fn) {
		w.ctx = fixes.Text(pass.Fset, o.Call.Args[0]) + ", "
	}
	w.key = fixes.Text(pass.Fset, o.Keys[0])
	w.recv = fixes.Text(pass.Fset, o.Recv)
	var out []Release
	if opts.DelEx {
		if edits, ok := w.delEx(); ok {
			out = append(out, Release{Kind: ReleaseDelEx, Edits: edits})
		}
	}
	if edits, ok := w.script(g); ok {
		out = append(out, Release{Kind: ReleaseScript, Edits: edits})
	}
	return out
}

type releaseWriter struct {
	pass  *analysis.Pass
	o     *Op
	fn    *types.Func // the delete method
	file  *ast.File
	recvT types.Type
	// source text: "ctx, " or "", the key, the receiver, the token
	ctx, key, recv, token string
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

// script rewrites Del(ctx, key) into unlockScript.Run(ctx, rdb,
// []string{key}, token) (Eval inside a pipeline or transaction, where Run
// cannot fall back from EVALSHA to EVAL), adapting how the reply is read.
func (w *releaseWriter) script(g goRedis) ([]analysis.TextEdit, bool) {
	pkg := w.fn.Pkg()
	ctor, ok := pkg.Scope().Lookup("NewScript").(*types.Func)
	if !ok || ctor.Signature().Results().Len() != 1 {
		return nil, false
	}
	name := "Run"
	if w.o.Scope.Kind != Direct {
		name = "Eval"
	}
	m := methodOf(ctor.Signature().Results().At(0).Type(), pkg, name)
	if m == nil || takesContext(m) != takesContext(w.fn) {
		return nil, false
	}
	sig := m.Signature()
	i := 0
	if takesContext(m) {
		i = 1
	}
	if sig.Params().Len() != i+3 || !sig.Variadic() || sig.Results().Len() != 1 ||
		!types.AssignableTo(w.recvT, sig.Params().At(i).Type()) {
		return nil, false
	}
	edits, ok := w.adaptReply(w.fn.Signature().Results().At(0).Type(), sig.Results().At(0).Type())
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

// adaptReply returns the edits that keep the code compiling when the
// delete's reply (type from, *IntCmd) becomes the script's (type to,
// *Cmd): discarded or Err() stay; Result() becomes Int64(); Val() stays
// only when its value is discarded too. Any other use: no rewrite.
func (w *releaseWriter) adaptReply(from, to types.Type) ([]analysis.TextEdit, bool) {
	c := w.o.Cursor
	switch p := c.Parent().Node().(type) {
	case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
		return nil, true
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 {
			return nil, false
		}
		for _, l := range p.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				return nil, false
			}
		}
		return nil, true
	case *ast.SelectorExpr:
		outer, ok := c.Parent().Parent().Node().(*ast.CallExpr)
		if p.X != w.o.Call || !ok || outer.Fun != p || len(outer.Args) != 0 {
			return nil, false
		}
		same := func(a, b string) bool {
			ma, mb := methodOf(from, nil, a), methodOf(to, nil, b)
			return ma != nil && mb != nil && mb.Signature().Params().Len() == 0 && sameResults(ma.Signature(), mb.Signature())
		}
		switch p.Sel.Name {
		case "Err":
			return nil, same("Err", "Err")
		case "Result":
			return []analysis.TextEdit{fixes.Replace(p.Sel, "Int64")}, same("Result", "Int64")
		case "Val":
			switch c.Parent().Parent().Parent().Node().(type) {
			case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
				return nil, methodOf(to, nil, "Val") != nil
			}
		}
	}
	return nil, false
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
	p := shared(w.o.res, unlockKey{ctor, inTest}, func() any { return planUnlock(w.pass, w.o.res, g, ctor, inTest) }).(*unlockPlan)
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
}

// unlockPlan is the package's compare-and-delete script variable for one
// client: an existing one, or the name and declaration of a new one.
type unlockPlan struct {
	name     string
	existing types.Object
	edit     *analysis.TextEdit
	ok       bool
}

func planUnlock(pass *analysis.Pass, res *Result, g goRedis, ctor *types.Func, inTest bool) *unlockPlan {
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
		if s := constString(info, src); s != nil && unlockLike(*s) {
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
	base := "unlockScript"
	clients := map[string]bool{}
	for _, f := range scan.byName {
		if !inTest && isTestFile(pass, f) {
			continue
		}
		for _, spec := range f.Imports {
			if p, err := strconv.Unquote(spec.Path.Value); err == nil && goRedisPaths[p] != "" {
				clients[p] = true
			}
		}
	}
	if len(clients) > 1 {
		fam := goRedisPaths[ctor.Pkg().Path()]
		fam = fam[strings.LastIndex(fam, "/")+1:]
		base += strings.ToUpper(fam[:1]) + fam[1:]
	}
	name := base
	for i := 2; scan.taken(pass, name); i++ {
		name = base + strconv.Itoa(i)
	}
	text := fmt.Sprintf("\n\n// %s deletes a lock only while it still holds the token it was\n// acquired with (KEYS[1] the lock key, ARGV[1] the token).\nvar %s = %s.%s(`%s`)",
		name, name, pkgName, ctor.Name(), lua.UnlockSrc)
	return &unlockPlan{name: name, edit: &analysis.TextEdit{Pos: after.End(), End: after.End(), NewText: []byte(text)}, ok: true}
}

var secondKeyOrArg = regexp.MustCompile(`(?i)(keys|argv)\[\s*[2-9]`)

// unlockLike: a compare-and-delete of KEYS[1] against ARGV[1] that takes
// nothing else.
func unlockLike(src string) bool {
	s := lua.Classify(src)
	return s.Kind == lua.CompareAndDelete && s.TokenArg == 1 && !secondKeyOrArg.MatchString(src)
}

// methodOf looks up a method of t (or *t) by name.
func methodOf(t types.Type, pkg *types.Package, name string) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, name)
	fn, _ := obj.(*types.Func)
	return fn
}

func sameResults(a, b *types.Signature) bool {
	return types.Identical(a.Results(), b.Results())
}

func hasField(st *types.Struct, name string) bool {
	for f := range st.Fields() {
		if f.Name() == name {
			return true
		}
	}
	return false
}

// importedAs is the name under which file imports path, when that name
// means the package at pos (not shadowed, not _ or .).
func importedAs(pass *analysis.Pass, file *ast.File, path string, pos token.Pos) (string, bool) {
	for _, spec := range file.Imports {
		if p, err := strconv.Unquote(spec.Path.Value); err != nil || p != path {
			continue
		}
		pn := pass.TypesInfo.PkgNameOf(spec)
		if pn == nil || pn.Name() == "_" || pn.Name() == "." {
			continue
		}
		if resolveAt(pass, file, pn.Name(), pos) == types.Object(pn) {
			return pn.Name(), true
		}
	}
	return "", false
}

func isTestFile(pass *analysis.Pass, f *ast.File) bool {
	return strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go")
}
