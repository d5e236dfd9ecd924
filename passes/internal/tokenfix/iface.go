package tokenfix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/redisops"
)

// A helper pair that implements an interface of the module (a
// repository's AcquireX/ReleaseX behind a service's interface): the
// repository is one object shared by every request, so a token kept in
// it would not tell its callers apart. Under the module view the fix
// changes the interface the way it changes the pair (its Lock returns
// the token too, its Unlock takes it), and with it:
//
//   - every other implementation in the module (a fake in a test file,
//     another store): its Lock returns "" besides its results and its
//     Unlock takes the token and ignores it (a fake writes no value that
//     a token could be compared with, and "" keeps its imports as they
//     are; callers treat the token as opaque);
//   - every call of Lock and Unlock, through the interface or a type
//     that implements it, by the pair's rules for callers.
//
// The types and interfaces concerned are a closure: the pair's type, the
// module's interfaces with Lock or Unlock that one of the types
// implements, the module's types that implement one of those interfaces,
// and so on. There is no fix when an implementation is generated (a
// mockgen mock: regenerate it), also uses a Redis client, or a type of the
// closure implements an interface from outside the module; or when a
// caller cannot be rewritten (a method value, no token in scope).

// typeKey names a type across type-checks of the module's packages (the
// module view loads some apart, with objects of their own).
type typeKey struct{ path, name string }

// ifacePlan is what the interface fix edits besides the pair itself.
type ifacePlan struct {
	ifaces, impls map[typeKey]bool
	name          string  // an interface, as the message names it
	units         []*unit // the pass's first
	quals         []string
	views         [][]*types.Package // each unit's package and the module's packages it imports
}

// match tells calls of the pair through any type of the closure.
func (ip *ifacePlan) match(lname, uname string) func(types.Object) (bool, bool) {
	return func(o types.Object) (bool, bool) {
		f, ok := o.(*types.Func)
		if !ok || f.Name() != lname && f.Name() != uname {
			return false, false
		}
		r := redisops.RecvType(f.Origin())
		if r == nil || r.Pkg() == nil {
			return false, false
		}
		k := typeKey{r.Pkg().Path(), r.Name()}
		if !ip.ifaces[k] && !ip.impls[k] {
			return false, false
		}
		return f.Name() == lname, f.Name() == uname
	}
}

// ifaceClosure finds the interfaces of the module that the pair's type
// implements, with Lock or Unlock among their methods, and the types of
// the module that implement them. A nil plan without why: there are
// none (or the host has no view of the whole module).
func ifaceClosure(pass *analysis.Pass, mod *lvconfig.Module, lfn, ufn *types.Func) (*ifacePlan, string) {
	recv := redisops.RecvType(lfn)
	if recv == nil || recv.Pkg() == nil {
		return nil, ""
	}
	pkgs, complete := mod.Packages()
	if !complete {
		return nil, ""
	}
	names := []string{lfn.Name(), ufn.Name()}
	ip := &ifacePlan{ifaces: map[typeKey]bool{}, impls: map[typeKey]bool{{recv.Pkg().Path(), recv.Name()}: true}}
	ip.units = append(ip.units, unitOf(pass))
	ip.quals = append(ip.quals, "")
	mods := map[string]bool{pass.Pkg.Path(): true}
	for _, mp := range pkgs {
		if mp.Types == nil || mp.Fset != pass.Fset {
			continue
		}
		if mp.Broken {
			// Also a file of the pass's own package that a build
			// constraint leaves out (an integration test).
			if f := namesAny(mp, names); f != "" {
				return nil, fmt.Sprintf("%s may call %s and %s", f, lfn.Name(), notBuilt(mp))
			}
			continue
		}
		if mp.Types == pass.Pkg {
			continue
		}
		mods[mp.Types.Path()] = true
		ip.units = append(ip.units, &unit{fset: mp.Fset, info: mp.Info, pkg: mp.Types, files: mp.Files, read: os.ReadFile})
		q := ""
		if mp.Types.Path() != pass.Pkg.Path() {
			q = mp.Types.Name() + "."
		}
		ip.quals = append(ip.quals, q)
	}
	// Each unit's view of the module: its package and the module's
	// packages it imports, directly or not.
	ip.views = make([][]*types.Package, len(ip.units))
	views := ip.views
	for i, u := range ip.units {
		seen := map[*types.Package]bool{}
		var walk func(p *types.Package)
		walk = func(p *types.Package) {
			if seen[p] || !mods[p.Path()] {
				return
			}
			seen[p] = true
			views[i] = append(views[i], p)
			for _, imp := range p.Imports() {
				walk(imp)
			}
		}
		walk(u.pkg)
	}
	has := func(t types.Type) bool {
		for _, n := range names {
			if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, n); obj != nil {
				return true
			}
		}
		return false
	}
	implements := func(t types.Type, it *types.Interface) bool {
		return types.Implements(t, it) || types.Implements(types.NewPointer(t), it)
	}
	for changed := true; changed; {
		changed = false
		for _, view := range views {
			byPath := map[string]*types.Package{}
			for _, p := range view {
				byPath[p.Path()] = p
			}
			lookup := func(k typeKey) types.Type {
				if p := byPath[k.path]; p != nil {
					if tn, ok := p.Scope().Lookup(k.name).(*types.TypeName); ok {
						return tn.Type()
					}
				}
				return nil
			}
			for _, p := range view {
				for _, name := range p.Scope().Names() {
					tn, ok := p.Scope().Lookup(name).(*types.TypeName)
					if !ok || tn.IsAlias() || !has(tn.Type()) {
						continue
					}
					if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
						continue
					}
					k := typeKey{p.Path(), name}
					if it, ok := tn.Type().Underlying().(*types.Interface); ok {
						if ip.ifaces[k] {
							continue
						}
						for t := range ip.impls {
							if tt := lookup(t); tt != nil && implements(tt, it) {
								ip.ifaces[k], changed = true, true
								if ip.name == "" {
									ip.name = qualName(pass.Pkg, p, name)
								}
								break
							}
						}
						continue
					}
					if ip.impls[k] {
						continue
					}
					for i := range ip.ifaces {
						if it, ok := lookup(i).(*types.Named); ok && implements(tn.Type(), it.Underlying().(*types.Interface)) {
							ip.impls[k], changed = true, true
							break
						}
					}
				}
			}
		}
	}
	if len(ip.ifaces) == 0 {
		return nil, ""
	}
	// An interface from outside the module that a type of the closure
	// implements would break.
	for i, u := range ip.units {
		for _, imp := range u.pkg.Imports() {
			if mods[imp.Path()] {
				continue
			}
			for _, v := range views[i] {
				for t := range ip.impls {
					if t.path != v.Path() {
						continue
					}
					tn, ok := v.Scope().Lookup(t.name).(*types.TypeName)
					if !ok {
						continue
					}
					for _, n := range names {
						if x := implementedBy(imp, tn.Type(), n); x != "" && !strings.Contains(x, ".") {
							return nil, fmt.Sprintf("%s implements %s.%s, outside the module", t.name, imp.Name(), x)
						}
					}
				}
			}
		}
	}
	return ip, ""
}

// qualName is name of p as a message of pkg's finding says it.
func qualName(pkg, p *types.Package, name string) string {
	if p.Path() == pkg.Path() {
		return name
	}
	return p.Name() + "." + name
}

// namesAny is the base name of a file of mp that names one of names.
func namesAny(mp lvconfig.ModulePackage, names []string) string {
	for _, f := range mp.Files {
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				for _, s := range names {
					found = found || id.Name == s
				}
			}
			return !found
		})
		if found {
			return filepath.Base(mp.Fset.File(f.Pos()).Name())
		}
	}
	return ""
}

// declAt finds the file of the units holding the position of pos, which
// may be in another parse of the same file or in export data (whose
// offsets are not the file's: its lines are), and the position there
// of the identifier name on pos's line.
func (ip *ifacePlan) declAt(fset *token.FileSet, pos token.Pos, name string) (*unit, *ast.File, token.Pos) {
	at := fset.Position(pos)
	for _, u := range ip.units {
		for _, f := range u.files {
			tf := u.fset.File(f.Pos())
			if tf.Name() != at.Filename || at.Line < 1 || at.Line > tf.LineCount() {
				continue
			}
			found := token.NoPos
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && id.Name == name && tf.Line(id.Pos()) == at.Line && found == token.NoPos {
					found = id.Pos()
				}
				return found == token.NoPos
			})
			return u, f, found
		}
	}
	return nil, nil, token.NoPos
}

// ifaceEdits changes the interfaces' declarations of Lock and Unlock and
// the module's other implementations of them.
func (p *pair) ifaceEdits(ip *ifacePlan) string {
	lname, uname := p.lfn.Name(), p.ufn.Name()
	fset := ip.units[0].fset
	done := map[string]bool{}
	key := func(pos token.Pos, name string) string {
		at := fset.Position(pos)
		return fmt.Sprintf("%s:%d:%s", at.Filename, at.Line, name)
	}
	done[key(p.ldecl.Name.Pos(), lname)], done[key(p.udecl.Name.Pos(), uname)] = true, true
	// The methods' objects, as each unit sees the closure's types.
	var ms []method
	for _, view := range ip.views {
		for _, q := range view {
			for k := range ip.ifaces {
				if k.path == q.Path() {
					ms = append(ms, methodsOf(q, k, true, lname, uname)...)
				}
			}
			for k := range ip.impls {
				if k.path == q.Path() {
					ms = append(ms, methodsOf(q, k, false, lname, uname)...)
				}
			}
		}
	}
	sort.SliceStable(ms, func(i, j int) bool {
		return key(ms[i].fn.Pos(), ms[i].fn.Name()) < key(ms[j].fn.Pos(), ms[j].fn.Name())
	})
	for _, m := range ms {
		k := key(m.fn.Pos(), m.fn.Name())
		if done[k] {
			continue
		}
		done[k] = true
		u, f, pos := ip.declAt(fset, m.fn.Pos(), m.fn.Name())
		if u == nil || pos == token.NoPos {
			return fmt.Sprintf("%s.%s is not in the module's files", m.typ, m.fn.Name())
		}
		base := filepath.Base(u.fset.File(f.Pos()).Name())
		if ast.IsGenerated(f) {
			return fmt.Sprintf("%s implements %s in the generated %s: change it and regenerate mocks", m.typ, ip.name, base)
		}
		isL := m.fn.Name() == lname
		var why string
		if m.iface {
			why = p.ifaceMethodEdit(u, f, pos, isL)
		} else {
			why = p.implEdit(u, f, pos, isL)
		}
		if why != "" {
			return why
		}
	}
	return ""
}

// method is Lock or Unlock of a type of the closure.
type method struct {
	fn    *types.Func
	iface bool
	typ   string
}

// methodsOf are the type k's Lock and Unlock, as q declares k.
func methodsOf(q *types.Package, k typeKey, iface bool, names ...string) []method {
	tn, ok := q.Scope().Lookup(k.name).(*types.TypeName)
	if !ok {
		return nil
	}
	t := tn.Type()
	if !iface {
		t = types.NewPointer(t)
	}
	var ms []method
	for _, n := range names {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, n)
		if fn, ok := obj.(*types.Func); ok {
			ms = append(ms, method{fn, iface, k.name})
		}
	}
	return ms
}

// ifaceMethodEdit changes the interface's method declared at pos.
func (p *pair) ifaceMethodEdit(u *unit, f *ast.File, pos token.Pos, isL bool) string {
	var ft *ast.FuncType
	ast.Inspect(f, func(n ast.Node) bool {
		if fd, ok := n.(*ast.Field); ok && len(fd.Names) == 1 && fd.Names[0].Pos() == pos {
			ft, _ = fd.Type.(*ast.FuncType)
		}
		return ft == nil
	})
	if ft == nil {
		return "no declaration of the interface's " + p.lfn.Name()
	}
	if isL {
		return p.addResult(u, ft)
	}
	p.addTokenParam(ft, p.uName)
	return ""
}

// addResult adds the token's string result to ft among its p.n results,
// at p.k; named results get a named one.
func (p *pair) addResult(u *unit, ft *ast.FuncType) string {
	res := ft.Results
	n := 0
	if res != nil {
		n = res.NumFields()
	}
	if n != p.n {
		return "the interface's " + p.lfn.Name() + " differs"
	}
	typ := "string"
	if res != nil && len(res.List) > 0 && len(res.List[0].Names) > 0 {
		typ = freeParam(ft, "token", "lockToken") + " string"
	}
	switch {
	case n == 0:
		p.insert(ft.Params.End(), " string")
	case !res.Opening.IsValid():
		t := u.src(res.List[0])
		if p.k == 0 {
			p.edits = append(p.edits, fixesReplace(res.List[0], "(string, "+t+")"))
		} else {
			p.edits = append(p.edits, fixesReplace(res.List[0], "("+t+", string)"))
		}
	case p.k == n:
		p.insert(res.List[len(res.List)-1].End(), ", "+typ)
	default:
		at := 0
		for _, fd := range res.List {
			c := max(len(fd.Names), 1)
			if at+c > p.k {
				if at != p.k {
					return "grouped results"
				}
				p.insert(fd.Pos(), typ+", ")
				break
			}
			at += c
		}
	}
	return ""
}

// addTokenParam adds the token's parameter to ft at p.uIndex: named name
// when the parameters are named, else unnamed.
func (p *pair) addTokenParam(ft *ast.FuncType, name string) {
	params := ft.Params
	typ := "string"
	if len(params.List) > 0 && len(params.List[0].Names) > 0 {
		if name != "_" {
			name = freeParam(ft, name, "lockToken", "token2")
		}
		typ = name + " string"
	} else if len(params.List) == 0 && name == "_" {
		typ = "_ string"
	} else if len(params.List) == 0 {
		typ = name + " string"
	}
	last := len(params.List) - 1
	switch {
	case last < 0:
		p.insert(params.Opening+1, typ)
	case p.uIndex < ft.Params.NumFields():
		p.insert(params.List[last].Pos(), typ+", ")
	default:
		p.insert(params.List[last].End(), ", "+typ)
	}
}

// freeParam is the first of names that no parameter or result of ft has.
func freeParam(ft *ast.FuncType, names ...string) string {
	used := map[string]bool{}
	for _, l := range []*ast.FieldList{ft.Params, ft.Results} {
		if l == nil {
			continue
		}
		for _, fd := range l.List {
			for _, n := range fd.Names {
				used[n.Name] = true
			}
		}
	}
	for _, n := range names {
		if !used[n] {
			return n
		}
	}
	return names[len(names)-1] + "_"
}

// implEdit changes another implementation's method declared at pos: its
// Lock returns "" as the token, its Unlock takes one and ignores it.
func (p *pair) implEdit(u *unit, f *ast.File, pos token.Pos, isL bool) string {
	var decl *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Pos() == pos {
			decl = fd
		}
	}
	if decl == nil || decl.Body == nil {
		return "an implementation of " + p.lfn.Name() + " without a body"
	}
	fn, _ := u.info.Defs[decl.Name].(*types.Func)
	if fn == nil {
		return "an implementation of " + p.lfn.Name() + " without its types"
	}
	typ := ""
	if r := redisops.RecvType(fn); r != nil {
		typ = r.Name() + "."
	}
	// One that uses a client has its own lock: its own finding fixes it.
	uses := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if cf := typeutil.Callee(u.info, c); cf != nil && cf.Pkg() != nil && redisops.ClientPackage(cf.Pkg().Path()) {
				uses = true
			}
		}
		return !uses
	})
	if uses {
		return fmt.Sprintf("%s%s, another implementation, uses Redis too", typ, decl.Name.Name)
	}
	if !isL {
		p.addTokenParam(decl.Type, "_")
		return ""
	}
	sig := fn.Signature()
	if sig.Results().Len() != p.n {
		return fmt.Sprintf("%s%s has other results", typ, decl.Name.Name)
	}
	if p.n > 0 && sig.Results().At(0).Name() != "" {
		return fmt.Sprintf("%s%s has named results", typ, decl.Name.Name)
	}
	q := &pair{ldecl: decl, lfn: fn, n: p.n, k: p.k, lName: `""`}
	if why := q.lockEdits(u, ""); why != "" {
		return why
	}
	p.edits = append(p.edits, q.edits...)
	return ""
}

// ifaceCallers rewrites the calls of the pair in every unit.
func (p *pair) ifaceCallers(ip *ifacePlan) string {
	match := ip.match(p.lfn.Name(), p.ufn.Name())
	p.nests = nil
	for i, u := range ip.units {
		p.qual = ip.quals[i]
		before := len(p.edits)
		if why := p.callerEdits(u, match); why != "" {
			return why
		}
		for _, e := range p.edits[before:] {
			if f := u.fileOf(e.Pos); f == nil || ast.IsGenerated(f) {
				return fmt.Sprintf("a call in a generated file of %s", u.pkg.Name())
			}
		}
	}
	p.qual = ""
	return p.nestCallers(ip.units, ip.quals, true)
}
