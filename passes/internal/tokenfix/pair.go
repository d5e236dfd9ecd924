package tokenfix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/internal/constval"

	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// A helper pair: the lock is acquired in one function declaration (Lock)
// and deleted by a bare DEL in another (Unlock), so no local variable can
// carry a token from one to the other. The fix threads it through the
// pair's signatures:
//
//   - Lock makes the token first thing, writes it as the value and
//     returns it: an added string result, before a last error result or
//     else after the others (the existing results keep their order);
//   - Unlock takes it as an added parameter (before a variadic one, else
//     last) and deletes the key only while it holds it (a DEL becomes the
//     compare-and-delete; a compare-and-delete script that compares with
//     a constant, which every holder passes, compares with the token);
//   - every call of Lock keeps the token (in a new variable), and every
//     call of Unlock passes the token of the Lock call in whose scope it
//     is.
//
// There is no fix when a call cannot be rewritten mechanically: Lock's
// result passed on, Unlock called where no Lock token is in scope, a
// function value, or a pair that implements an interface while the host
// does not give the whole module (with it, the interface changes too:
// iface.go). Callers in other packages (and the
// package's own tests, when the host left them out) are edited when the
// host gives the whole module (Module: the lockvet command loads what it
// had not when first asked); otherwise an exported pair gets no fix. A
// fix that changes an exported signature says so in its message.

// pair is what the fix changes: the two declarations and their objects.
type pair struct {
	a        *redisops.Op
	ldecl    *ast.FuncDecl
	udecl    *ast.FuncDecl
	lfn, ufn *types.Func
	dels     []*redisops.Op
	n, k     int // Lock's results, and where the token goes among them
	uIndex   int // where the token goes among Unlock's parameters
	edits    []analysis.TextEdit
	lName    string // the token variable in Lock
	uName    string // the token parameter of Unlock
	qual     string // "pkg." while the callers of another package are edited

	// The renewing function, when the token is threaded to it too
	// (renew.go): its declaration, object, the token's index among its
	// parameters, and the renewals it rewrites.
	rdecl   *ast.FuncDecl
	rfn     *types.Func
	rIndex  int
	renewed []*redisops.Op

	// Helper pairs one level up (nested.go): those found, how deep this
	// pair is (1 for such a pair), and, for one, the call of Lock in it.
	nests []*nested
	depth int
	inner *lockCall
	pass  *analysis.Pass
	mod   *lvconfig.Module
}

func buildPair(pass *analysis.Pass, res *redisops.Result, a *redisops.Op, opts redisops.ReleaseOptions, mod *lvconfig.Module, file *ast.File, value string) *Plan {
	const other = "release in another function"
	ldecl, ok := a.Func.Node.(*ast.FuncDecl)
	if !ok {
		return no(other)
	}
	info := pass.TypesInfo
	lfn, _ := info.Defs[ldecl.Name].(*types.Func)
	if lfn == nil {
		return no(other)
	}
	locks := lockid.New(pass, res)
	var udecl *ast.FuncDecl
	var dels []*redisops.Op
	// Owner-checked scripts of Unlock whose token argument is a constant
	// (the value every holder writes): their argument becomes the token.
	var checks []*redisops.Op
	// A call of a helper of the package: its own operations stand for it.
	ours := func(o *redisops.Op) bool {
		if o.Via == nil {
			return false
		}
		fn := typeutil.StaticCallee(info, o.Call)
		return fn != nil && fn.Pkg() == pass.Pkg
	}
	var through *redisops.Op // a release by a call of a helper of the package
	for _, r := range locks.Releases(a) {
		if ours(r.Op) {
			if through == nil && !r.Checked {
				through = r.Op
			}
			continue
		}
		if r.Checked {
			if constTokenArg(info, r.Op) == nil {
				continue
			}
		} else if r.Op.Kind != redisops.Delete {
			return no(other)
		}
		if r.Evidence != lockid.Counterpart && r.Evidence != lockid.SameShape {
			return no(other)
		}
		d, ok := r.Op.Func.Node.(*ast.FuncDecl)
		if !ok || d == ldecl {
			return no(other)
		}
		if udecl != nil && d != udecl {
			return no("released in two functions")
		}
		udecl = d
		if r.Checked {
			checks = append(checks, r.Op)
		} else {
			dels = append(dels, r.Op)
		}
	}
	if udecl == nil && through != nil {
		// Unlock calls a delete helper of the package (Delete(key)):
		// the pair's fix rewrites only the DELs in Unlock itself.
		return no(fmt.Sprintf("released through the helper %s, in %s", through.Via.Name, funcOf(through)))
	}
	if udecl == nil {
		return no(other)
	}
	ufn, _ := info.Defs[udecl.Name].(*types.Func)
	if ufn == nil {
		return no(other)
	}
	// The calls of the pair, and of the functions of the package that
	// call it (a helper pair one level up, nested.go: whether its
	// callers can be threaded is the callers' edits' to tell).
	wraps := wrappersOf(pass, lfn, ufn)
	ours = func(o *redisops.Op) bool {
		if o.Via == nil {
			return false
		}
		fn := typeutil.StaticCallee(info, o.Call)
		return fn != nil && (fn.Origin() == lfn || fn.Origin() == ufn || o.Via.Depth == 1 && wraps[fn.Origin()])
	}
	p := &pair{a: a, ldecl: ldecl, udecl: udecl, lfn: lfn, ufn: ufn, dels: dels, pass: pass, mod: mod}
	lname, uname := lfn.Name(), ufn.Name()
	var rens []*redisops.Op // renewals outside Lock

	// The key's other operations: none in Unlock but its deletes (and
	// renewals), no other acquire or delete anywhere.
	for _, o := range res.Ops {
		if o == a || o.Func == nil || ours(o) {
			continue
		}
		same := false
		for _, k := range o.Keys {
			if keyid.SameShape(a.KeyForm(), o.FormOf(k)) {
				same = true
			}
		}
		inU := o.Call.Pos() >= udecl.Pos() && o.Call.End() <= udecl.End()
		if inU && (containsOp(dels, o) || containsOp(checks, o)) {
			continue
		}
		if !same && inU {
			return no(fmt.Sprintf("%s also uses another key", udecl.Name.Name))
		}
		if !same {
			continue
		}
		switch {
		case o.Kind == redisops.Expire:
			if o.Call.Pos() < ldecl.Pos() || o.Call.End() > ldecl.End() {
				rens = append(rens, o)
			}
		case o.Kind == redisops.Delete && inU:
			if !containsOp(dels, o) {
				dels = append(dels, o)
			}
		case o.Kind == redisops.Delete:
			return no("released in two functions")
		case o.Kind == redisops.Acquire:
			return no(fmt.Sprintf("%s also acquires the key", funcOf(o)))
		default:
			// A key of the same shape, maybe another key: the value
			// the fix changes may be read there.
			return no(fmt.Sprintf("%s in %s uses keys of this shape", o.Method, funcOf(o)))
		}
	}
	p.dels = dels

	for _, fn := range []*types.Func{lfn, ufn} {
		if fn.Signature().TypeParams().Len() > 0 || fn.Signature().RecvTypeParams().Len() > 0 {
			return no(fn.Name() + " is generic")
		}
	}
	// A pair that implements an interface of the module changes with
	// the interface, its other implementations and their callers, when
	// the host has loaded the whole module (iface.go).
	ip, why := ifaceClosure(pass, mod, lfn, ufn)
	if why != "" {
		return no(why)
	}
	var others []lvconfig.ModulePackage
	if ip == nil {
		for _, fn := range []*types.Func{lfn, ufn} {
			if i := implemented(pass.Pkg, fn); i != "" {
				// A shared object (a repository) is no holder: a token per
				// instance would not tell its callers apart. The interface
				// itself must change, with every implementation and caller.
				return no(fmt.Sprintf("%s implements %s; make its %s return the token and its %s take it", fn.Name(), i, lfn.Name(), ufn.Name()))
			}
		}
		// An exported pair can be called from the module's other packages:
		// their calls are edited too, when the host has loaded them all (the
		// lockvet command loads the rest of the module when first asked).
		// Without its test files loaded (-test=false), the package's own
		// tests may call even an unexported pair: the module view, when
		// there is one, has them too.
		others, why = pairCallers(pass, mod, lfn, ufn)
		if why != "" {
			return no(why)
		}
	}

	// Lock's results.
	lsig := lfn.Signature()
	p.n = lsig.Results().Len()
	if p.n > 0 && lsig.Results().At(0).Name() != "" {
		return no(lname + " has named results")
	}
	p.k = p.n
	if p.n > 0 && isError(lsig.Results().At(p.n-1).Type()) {
		p.k = p.n - 1
	}
	usig := ufn.Signature()

	u := unitOf(pass)
	p.lName = freeName(u, ldecl, ldecl.Body.Lbrace+1, nil)
	p.uName = freeName(u, udecl, udecl.Body.Lbrace+1, nil)
	if p.lName == "" || p.uName == "" {
		return no("no free name for the token")
	}
	tokExpr, tokEdits, ok := tokenExpr(pass, res, file, ldecl.Body.Lbrace+1)
	if !ok {
		return no("crypto/rand cannot be imported here")
	}
	p.edits = append(p.edits, tokEdits...)
	p.edits = append(p.edits, fixesReplace(a.Value, strings.ReplaceAll(value, "TOKEN", p.lName)))
	if why := p.lockEdits(u, tokExpr); why != "" {
		return no(why)
	}
	// Unlock's parameter and release.
	p.uIndex = p.addParam(udecl, usig, p.uName)
	for _, d := range p.dels {
		rel, why := releaseEdits(pass, d, p.uName, opts)
		if why != "" {
			return no(why)
		}
		p.edits = append(p.edits, rel...)
	}
	for _, c := range checks {
		p.edits = append(p.edits, fixesReplace(constTokenArg(info, c), p.uName))
	}

	// The renewals, when the token can be threaded to them too; else
	// the fix leaves them and says why at them. A pair that implements
	// an interface changes with the interface and all that implement
	// or call it (iface.go); its renewals stay.
	before := len(p.edits)
	renewWhy := ""
	if ip != nil {
		if why := p.ifaceEdits(ip); why != "" {
			return no(why)
		}
		if why := p.ifaceCallers(ip); why != "" {
			return no(why)
		}
	} else {
		renewWhy = p.renewal(pass, res, u, renewOps(pass, rens))
		if why := p.allCallerEdits(u, others); why != "" {
			if p.rfn == nil {
				return no(why)
			}
			// Without the renewal's callers, maybe.
			renewWhy = why
			p.edits, p.rdecl, p.rfn, p.renewed = p.edits[:before], nil, nil, nil
			if why := p.allCallerEdits(u, others); why != "" {
				return no(why)
			}
		}
	}
	edits, ok := coalesce(p.edits)
	if !ok {
		return no("the edits overlap")
	}
	fns := []*types.Func{lfn, ufn}
	msg := fmt.Sprintf("Acquire with a random token that %s returns and %s takes, and release only while the key holds it", lname, uname)
	if p.rfn != nil {
		fns = append(fns, p.rfn)
		msg = fmt.Sprintf("Acquire with a random token that %s returns and %s and %s take, and renew and release only while the key holds it", lname, uname, p.rfn.Name())
	}
	var api []string
	for _, fn := range fns {
		if ip == nil && exportedAPI(fn) {
			api = append(api, fn.Name())
		}
	}
	switch len(api) {
	case 0:
	case 1:
		msg += "; changes the exported " + api[0] + "'s signature"
	default:
		msg += fmt.Sprintf("; changes the signatures of the exported %s and %s", strings.Join(api[:len(api)-1], ", "), api[len(api)-1])
	}
	if p.rfn == nil && len(rens) > 0 && renewWhy == "" {
		renewWhy = "the renewal is not threaded"
	}
	if ip != nil {
		msg += fmt.Sprintf("; changes the interface %s, its implementations and their callers", ip.name)
	}
	seen := map[string]bool{}
	for _, n := range p.nests {
		s := fmt.Sprintf("; %s returns it too and %s takes it", n.q.lfn.Name(), n.q.ufn.Name())
		if !seen[s] {
			seen[s] = true
			msg += s
			for _, fn := range []*types.Func{n.q.lfn, n.q.ufn} {
				if exportedAPI(fn) {
					msg += "; changes the exported " + fn.Name() + "'s signature"
				}
			}
		}
	}
	return &Plan{OK: true, Fix: analysis.SuggestedFix{
		Message:   msg,
		TextEdits: edits,
	}, renewed: p.renewed, renewWhy: renewWhy}
}

// allCallerEdits rewrites the pair's callers: the package's own (u) and
// those of the module's other packages.
func (p *pair) allCallerEdits(u *unit, others []lvconfig.ModulePackage) string {
	lfn, ufn := p.lfn, p.ufn
	p.qual = ""
	p.nests = nil
	units, quals := []*unit{u}, []string{""}
	if why := p.callerEdits(u, func(o types.Object) (lock, unlock bool) { return o == lfn, o == ufn }); why != "" {
		return why
	}
	for _, mp := range others {
		ou := &unit{fset: mp.Fset, info: mp.Info, pkg: mp.Types, files: mp.Files, read: os.ReadFile}
		before := len(p.edits)
		match := func(o types.Object) (lock, unlock bool) { return sameFunc(o, lfn), sameFunc(o, ufn) }
		p.qual = ""
		if mp.Types.Path() != lfn.Pkg().Path() {
			p.qual = mp.Types.Name() + "."
		}
		if why := p.callerEdits(ou, match); why != "" {
			return why
		}
		for _, e := range p.edits[before:] {
			if f := ou.fileOf(e.Pos); f == nil || ast.IsGenerated(f) {
				return fmt.Sprintf("a call in a generated file of %s", mp.Types.Name())
			}
		}
		units, quals = append(units, ou), append(quals, p.qual)
	}
	p.qual = ""
	return p.nestCallers(units, quals, false)
}

// pairCallers are the module's packages, other than the pass's, whose
// calls of Lock (lfn) and Unlock (ufn) the fix must edit too: those that
// import the pair's package, when the pair is exported, and the
// package's own test files when the host left them out and the pass has
// none (loaded apart, as another package of the same path). why says why there is no fix:
// an exported pair whose callers are not all known, or that implements
// an interface of a caller.
func pairCallers(pass *analysis.Pass, mod *lvconfig.Module, lfn, ufn *types.Func) (others []lvconfig.ModulePackage, why string) {
	exported := lfn.Exported() || ufn.Exported()
	if !exported && (!mod.TestsLeftOut() || hasTests(pass)) {
		return nil, ""
	}
	pkgs, complete := mod.Packages()
	if !complete {
		if !exported {
			return nil, ""
		}
		name := lfn.Name()
		if !lfn.Exported() {
			name = ufn.Name()
		}
		return nil, name + " is exported and not every caller is loaded"
	}
	own := map[string]bool{}
	for _, f := range pass.Files {
		own[pass.Fset.File(f.Pos()).Name()] = true
	}
	for _, mp := range pkgs {
		if mp.Types == nil || mp.Fset != pass.Fset {
			continue
		}
		if mp.Types == pass.Pkg && !mp.Broken {
			continue
		}
		if mp.Broken {
			// Its types are not to be trusted: a file that may call the
			// pair (it imports the package, or is of the package) and
			// names Lock or Unlock leaves the fix out.
			if f := namesPair(pass, mp, lfn, ufn, exported); f != "" {
				return nil, fmt.Sprintf("%s may call %s and %s", f, lfn.Name(), notBuilt(mp))
			}
			continue
		}
		if mp.Types.Path() == pass.Pkg.Path() {
			// The package's test files, loaded apart from it.
			var files []*ast.File
			for _, f := range mp.Files {
				if !own[mp.Fset.File(f.Pos()).Name()] {
					files = append(files, f)
				}
			}
			if len(files) > 0 {
				mp.Files = files
				others = append(others, mp)
			}
			continue
		}
		if !exported {
			continue
		}
		imp := importOf(mp.Types, pass.Pkg.Path())
		if imp == nil {
			continue
		}
		for _, f := range []*types.Func{lfn, ufn} {
			if i := implementedIn(mp.Types, imp, f); i != "" {
				return nil, fmt.Sprintf("%s implements %s", f.Name(), i)
			}
		}
		others = append(others, mp)
	}
	return others, ""
}

// namesPair is the base name of a file of the broken package mp that
// can call the pair and names Lock or Unlock, or "".
func namesPair(pass *analysis.Pass, mp lvconfig.ModulePackage, lfn, ufn *types.Func, exported bool) string {
	own := mp.Types != nil && mp.Types.Path() == pass.Pkg.Path()
	for _, f := range mp.Files {
		can := own || f.Name.Name == pass.Pkg.Name() && strings.HasSuffix(mp.Fset.File(f.Pos()).Name(), "_test.go")
		if !can && exported {
			for _, imp := range f.Imports {
				if strings.Trim(imp.Path.Value, "`\"") == pass.Pkg.Path() {
					can = true
				}
			}
		}
		if !can {
			continue
		}
		named := false
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && (id.Name == lfn.Name() || id.Name == ufn.Name()) {
				named = true
			}
			return !named
		})
		if named {
			return filepath.Base(mp.Fset.File(f.Pos()).Name())
		}
	}
	return ""
}

// notBuilt says why mp, a package whose types are not to be trusted,
// is read by name: it does not compile, or a build constraint leaves it
// out of this build.
func notBuilt(mp lvconfig.ModulePackage) string {
	if mp.Excluded {
		return "is not in this build"
	}
	return "does not compile"
}

// hasTests reports whether the pass has test files of its package.
func hasTests(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			return true
		}
	}
	return false
}

// exportedAPI reports whether fn is part of its package's exported API:
// an exported function, or an exported method of an exported type, of a
// package other than main.
func exportedAPI(fn *types.Func) bool {
	if !fn.Exported() || fn.Pkg() == nil || fn.Pkg().Name() == "main" {
		return false
	}
	if r := redisops.RecvType(fn); r != nil {
		return r.Exported()
	}
	return fn.Signature().Recv() == nil
}

// constTokenArg is the token argument of the owner-checked script s
// when it is a constant (an owner check every holder passes), or nil.
func constTokenArg(info *types.Info, s *redisops.Op) ast.Expr {
	if s.Kind != redisops.Script {
		return nil
	}
	sc := lua.Classify(s.ScriptSrc)
	if sc.TokenArg == 0 || sc.TokenArg > len(s.Args) {
		return nil
	}
	tok := s.Args[sc.TokenArg-1]
	if !constval.Known(info, tok) {
		return nil
	}
	return tok
}

func containsOp(ops []*redisops.Op, o *redisops.Op) bool {
	for _, x := range ops {
		if x == o {
			return true
		}
	}
	return false
}

// funcOf names the function declaration that holds o.
func funcOf(o *redisops.Op) string {
	if d, ok := o.Func.Node.(*ast.FuncDecl); ok {
		return d.Name.Name
	}
	return "a function literal"
}

func fixesReplace(n ast.Node, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: n.Pos(), End: n.End(), NewText: []byte(text)}
}

func (p *pair) insert(pos token.Pos, text string) {
	p.edits = append(p.edits, analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)})
}

// insertLine inserts line (indented, without its newline) after the
// statement ending at end: on the next line, or after a newline.
func (p *pair) insertLine(u *unit, end token.Pos, line string) {
	if at := u.lineAfter(end); at != end {
		p.insert(at, line+"\n")
	} else {
		p.insert(end, "\n"+line)
	}
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// importOf is the package at path as pkg imports it, or nil.
func importOf(pkg *types.Package, path string) *types.Package {
	for _, imp := range pkg.Imports() {
		if imp.Path() == path {
			return imp
		}
	}
	return nil
}

// sameFunc reports whether o, as another package sees it, is fn.
func sameFunc(o types.Object, fn *types.Func) bool {
	f, ok := o.(*types.Func)
	if !ok || f.Pkg() == nil || f.Pkg().Path() != fn.Pkg().Path() || f.Name() != fn.Name() {
		return false
	}
	r1, r2 := redisops.RecvType(f.Origin()), redisops.RecvType(fn)
	if r1 == nil || r2 == nil {
		return r1 == nil && r2 == nil && f.Signature().Recv() == nil && fn.Signature().Recv() == nil
	}
	return r1.Name() == r2.Name()
}

// implementedIn is implemented for a package of the module that imports
// fn's package as imp: fn's receiver type as imp declares it, against
// pkg's interfaces and those of its imports.
func implementedIn(pkg, imp *types.Package, fn *types.Func) string {
	r := redisops.RecvType(fn)
	if r == nil {
		return ""
	}
	tn, ok := imp.Scope().Lookup(r.Name()).(*types.TypeName)
	if !ok {
		return ""
	}
	return implementedBy(pkg, tn.Type(), fn.Name())
}

// implemented names an interface, declared in pkg or a package it
// imports, that has a method named as fn and that fn's receiver type
// implements: changing fn's signature would break it.
func implemented(pkg *types.Package, fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		return ""
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return implementedBy(pkg, t, fn.Name())
}

func implementedBy(pkg *types.Package, t types.Type, method string) string {
	ptr := types.NewPointer(t)
	for _, p := range append([]*types.Package{pkg}, pkg.Imports()...) {
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			it, ok := tn.Type().Underlying().(*types.Interface)
			if !ok || it.Empty() {
				continue
			}
			if obj, _, _ := types.LookupFieldOrMethod(it, false, nil, method); obj == nil {
				continue
			}
			if types.Implements(t, it) || types.Implements(ptr, it) {
				if p == pkg {
					return name
				}
				return p.Name() + "." + name
			}
		}
	}
	return ""
}

// lockEdits adds Lock's edits: the token made first thing, the added
// result, and the token in every return.
func (p *pair) lockEdits(u *unit, tokExpr string) string {
	decl := p.ldecl
	body := decl.Body
	if len(body.List) == 0 {
		return "an empty " + decl.Name.Name
	}
	indent := u.indent(body.List[0].Pos())
	if tokExpr != "" {
		// "": another implementation's Lock (ifaceEdits), which
		// returns p.lName as it is.
		p.insert(body.Lbrace+1, "\n"+indent+p.lName+" := "+tokExpr)
	}

	res := decl.Type.Results
	switch {
	case p.n == 0:
		p.insert(decl.Type.Params.End(), " string")
	case !res.Opening.IsValid():
		t := u.src(res.List[0])
		if p.k == 0 {
			p.edits = append(p.edits, fixesReplace(res.List[0], "(string, "+t+")"))
		} else {
			p.edits = append(p.edits, fixesReplace(res.List[0], "("+t+", string)"))
		}
	case p.k == p.n:
		p.insert(res.List[len(res.List)-1].End(), ", string")
	default:
		at := 0
		for i, f := range res.List {
			c := max(len(f.Names), 1)
			if at+c > p.k {
				if at != p.k {
					return decl.Name.Name + " has grouped results"
				}
				p.insert(res.List[i].Pos(), "string, ")
				break
			}
			at += c
		}
	}

	var why string
	ast.Inspect(body, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			why = p.returnEdit(u, n)
		}
		return true
	})
	if why != "" {
		return why
	}
	if p.n == 0 {
		if _, ok := body.List[len(body.List)-1].(*ast.ReturnStmt); !ok {
			p.insertLine(u, body.List[len(body.List)-1].End(), indent+"return "+p.lName)
		}
	}
	return ""
}

func (p *pair) returnEdit(u *unit, r *ast.ReturnStmt) string {
	tok := p.lName
	if lc := p.inner; lc != nil {
		// A nested pair's A: "" before the call of Lock, the token after.
		switch {
		case r.End() <= lc.call.Pos():
			tok = `""`
		case lc.from <= r.Pos() && r.End() <= lc.to:
		case lc.form == formIfInit && lc.stmt.End() <= r.Pos() && r.End() <= lc.list.End():
			lc.outer = true
		default:
			return fmt.Sprintf("a return of %s is out of the token's scope", p.ldecl.Name.Name)
		}
	}
	switch {
	case p.n == 0:
		p.insert(r.Return+token.Pos(len("return")), " "+tok)
	case len(r.Results) == p.n && p.k == p.n:
		p.insert(r.Results[p.n-1].End(), ", "+tok)
	case len(r.Results) == p.n:
		p.insert(r.Results[p.k].Pos(), tok+", ")
	case len(r.Results) == 1:
		// return f() with f's results: keep them in variables.
		taken := map[string]bool{tok: true}
		var names []string
		sig := p.lfn.Signature()
		for i := range p.n {
			base := "v"
			switch t := sig.Results().At(i).Type(); {
			case isError(t):
				base = "err"
			case types.Identical(t, types.Typ[types.Bool]):
				base = "ok"
			}
			name := freeName(u, p.ldecl, r.Pos(), taken, base, base+"2", base+"3")
			if name == "" {
				return "no free name in " + p.ldecl.Name.Name
			}
			taken[name] = true
			names = append(names, name)
		}
		rets := append(append(append([]string{}, names[:p.k]...), tok), names[p.k:]...)
		p.edits = append(p.edits, analysis.TextEdit{Pos: r.Return, End: r.Results[0].Pos(), NewText: []byte(strings.Join(names, ", ") + " := ")})
		p.insertLine(u, r.End(), u.indent(r.Pos())+"return "+strings.Join(rets, ", "))
	default:
		return "a return in " + p.ldecl.Name.Name
	}
	return ""
}
