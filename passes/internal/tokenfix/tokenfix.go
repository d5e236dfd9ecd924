// Package tokenfix builds the fix for a lock whose value every holder
// shares (a constant such as "1"), acquired and released in one function:
// the acquire writes a random token made for this acquisition, kept in a
// new local variable, and each release deletes the key only while it still
// holds that token.
//
// The fix is one plan per acquire, shared through the package's redisops
// result: LV204 offers it at the value, LV201 at each release and LV203 at
// each renewal it rewrites, and their edits are identical, so applied
// together they coalesce.
package tokenfix

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"go/version"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Plan is the fix for one acquire, or why there is none.
type Plan struct {
	Fix analysis.SuggestedFix
	OK  bool
	// Why says in a few words why there is no fix, when OK is false.
	Why string

	// renewed are the renewals (EXPIREs of the key) the fix rewrites
	// too: LV203 offers the same fix at them.
	renewed []*redisops.Op
	// renewWhy says why a renewal outside the acquire's function is not
	// among renewed (a helper pair's fix leaves it).
	renewWhy string
}

type planKey struct {
	a    *redisops.Op
	opts redisops.ReleaseOptions
	mod  *lvconfig.Module
}

// For returns the plan for the lock acquired by a: the same value for
// every check of the package that asks. mod is the host's view of the
// whole module, or nil (lvconfig.Module).
func For(pass *analysis.Pass, res *redisops.Result, a *redisops.Op, opts redisops.ReleaseOptions, mod *lvconfig.Module) *Plan {
	return res.Shared(planKey{a, opts, mod}, func() any { return build(pass, res, a, opts, mod) }).(*Plan)
}

func no(why string) *Plan { return &Plan{Why: why} }

func build(pass *analysis.Pass, res *redisops.Result, a *redisops.Op, opts redisops.ReleaseOptions, mod *lvconfig.Module) *Plan {
	info := pass.TypesInfo
	if p := viaPlan(pass, res, a, opts, mod); p != nil {
		// A call of a helper pair of another package: the pair's fix.
		return p
	}
	if a.Kind != redisops.Acquire || a.Value == nil || a.Func == nil || a.Func.Body == nil || len(a.Keys) != 1 {
		return no("the value is not written in the call")
	}
	file := res.FileIndex(pass).At(a.Call.Pos())
	if file == nil || astx.InTest(pass.Fset, a.Call.Pos()) || ast.IsGenerated(file) {
		return no("a test or generated file")
	}
	if len(a.Func.Scope().Collected(a.Key())) > 0 {
		// A lock per element of a batch (keys = append(keys, key)): each
		// key's token would have to be kept with it for its release.
		return no("a lock per element of a batch")
	}
	value, ok := valueText(info, a)
	if !ok {
		return no("the value's type takes no string token")
	}
	if fixes.Orphans(res, info, a.Func.Body, a.Value.Pos(), a.Value.End()) {
		return no("the value's variable would be left unused")
	}
	if id, ok := ast.Unparen(a.Value).(*ast.Ident); ok {
		// val := fmt.Sprintf("%s:%d", host, pid) read only by the
		// acquire: replacing it there leaves val declared and unused.
		if v, ok := info.Uses[id].(*types.Var); ok {
			if def, uses := a.Func.Scope().Vars().SoleDef(v); def != nil && uses == 1 {
				return no("its variable would be left unused")
			}
		}
	}

	// The function's other ops on the key: deletes are rewritten,
	// renewals too where the token is in scope (else they stay), anything
	// else that reads or writes the value would see a new one.
	var dels, rens []*redisops.Op
	for _, o := range res.Ops {
		if o == a || o.Func == nil || o.Call.Pos() < a.Func.Node.Pos() || o.Call.End() > a.Func.Node.End() {
			continue
		}
		same := false
		for _, k := range o.Keys {
			if keyid.Same(a.KeyForm(), o.FormOf(k)) {
				same = true
			}
		}
		if !same {
			continue
		}
		switch o.Kind {
		case redisops.Delete:
			if o.Call.Pos() < a.Call.End() {
				return no("a DEL of the key comes before the acquire")
			}
			dels = append(dels, o)
		case redisops.Expire:
			rens = append(rens, o)
		default:
			return no(fmt.Sprintf("%s also uses the value", o.Method))
		}
	}
	for _, d := range dels {
		if a.Via != nil && d.Via != nil && d.Call.Pos() > a.Call.End() {
			// Both in helpers (of another package, as a rule): the
			// token is theirs to make and take; the finding at the
			// helpers' DEL has the fix, or says why not.
			return no(fmt.Sprintf("the token must be made in %s (%s) and taken by %s", a.Via.Name, a.Via.Where, d.Via.Name))
		}
	}
	if len(dels) == 0 {
		p := buildPair(pass, res, a, opts, mod, file, value)
		if !p.OK {
			// A lock struct: the token goes in a field of the receiver.
			if f := Field(pass, res, a, opts); f.OK {
				return f
			}
		}
		return p
	}
	for _, o := range res.Ops {
		if o.Func == nil || o.Call.Pos() >= a.Func.Node.Pos() && o.Call.End() <= a.Func.Node.End() {
			continue
		}
		switch o.Kind {
		case redisops.Delete, redisops.Expire, redisops.Acquire:
			continue
		}
		for _, k := range o.Keys {
			if keyid.SameShape(a.KeyForm(), o.FormOf(k)) {
				return no(fmt.Sprintf("%s elsewhere reads the value", o.Method))
			}
		}
	}

	stmt, listEnd, ok := insertion(a, dels)
	if !ok {
		return no("a release outside the acquire's block")
	}
	name, ok := varName(pass, file, a, stmt)
	if !ok {
		return no("no free name for the token")
	}
	tokExpr, tokEdits, ok := tokenExpr(pass, res, file, a.Call.Pos())
	if !ok {
		return no("crypto/rand cannot be imported here")
	}

	indent := fixes.Indent(pass, stmt.Pos())
	edits := []analysis.TextEdit{
		{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(name + " := " + tokExpr + "\n" + indent)},
		fixes.Replace(a.Value, strings.ReplaceAll(value, "TOKEN", name)),
	}
	edits = append(edits, tokEdits...)
	for _, d := range dels {
		rel, why := releaseEdits(pass, d, name, opts)
		if why != "" {
			return no(why)
		}
		edits = append(edits, rel...)
	}
	// Renewals of a lock that has its TTL from the acquire (not the
	// EXPIRE that gives it one: LV101's) extend it only while it holds
	// the token too, so that LV203's fix of them is this one.
	var renewed []*redisops.Op
	if !a.NoTTL {
		vars := res.Shared(scriptVarsKey{}, func() any { return redisops.NewScriptVars(pass, res) }).(*redisops.ScriptVars)
		for _, e := range rens {
			if e.Call.Pos() < stmt.End() || e.Call.End() > listEnd || e.Call.Pos() < a.Call.End() || e.TTL == nil || e.DeletesKey() {
				continue
			}
			if ren, ok := e.Renew(pass, vars, name); ok {
				edits = append(edits, ren...)
				renewed = append(renewed, e)
			}
		}
	}
	edits, ok = coalesce(edits)
	if !ok {
		return no("the edits overlap")
	}
	msg := fmt.Sprintf("Acquire with a random token (%s) and release only while the key holds it", name)
	if len(renewed) > 0 {
		msg = fmt.Sprintf("Acquire with a random token (%s), and renew and release only while the key holds it", name)
	}
	return &Plan{OK: true, Fix: analysis.SuggestedFix{Message: msg, TextEdits: edits}, renewed: renewed}
}

type scriptVarsKey struct{}

// KeyPart reports whether the acquire a writes, in its own call, a value
// that is a variable part of its key (SetNX(prefix+id, id, ttl)): every
// holder of the key writes it, so it is no token, and neither a release
// nor a renewal may compare with it. Through a helper, the caller's
// arguments are LV204's.
func KeyPart(a *redisops.Op) bool {
	return a.Value != nil && a.Via == nil && a.Func != nil && len(a.Keys) == 1 && a.Func.Scope().PartOf(a.Key(), a.Value)
}

// Renewal returns the plan for the lock acquired by a when it rewrites
// the renewal e too (a compare-and-pexpire with the plan's token): the
// same plan as LV204's and LV201's, so that applied together their fixes
// coalesce into one token variable.
func Renewal(pass *analysis.Pass, res *redisops.Result, a, e *redisops.Op, opts redisops.ReleaseOptions, mod *lvconfig.Module) *Plan {
	p := For(pass, res, a, opts, mod)
	if p.OK && !slices.Contains(p.renewed, e) {
		if p.renewWhy != "" && !astx.Encloses(a.Func.Node, e.Call) {
			return no(p.renewWhy)
		}
		return no("the renewal is not in the acquire's block")
	}
	return p
}

// releaseEdits rewrites the DEL d to delete the key only while it holds
// the token tok (an expression in d's scope), or says why it can't.
func releaseEdits(pass *analysis.Pass, d *redisops.Op, tok string, opts redisops.ReleaseOptions) ([]analysis.TextEdit, string) {
	rels := d.Releases(pass, tok, opts)
	if len(rels) == 0 {
		if why := d.ReleaseWhy(pass); why != "" {
			return nil, why
		}
		return nil, fmt.Sprintf("can't rewrite this %s", d.Method)
	}
	return rels[0].Edits, ""
}

// StringValue reports whether e is a string or a byte slice: a value
// that may be a token already (the caller's, or a random one), which a
// plan should not replace unless it is a constant.
func StringValue(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	if t == nil {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// valueText is the replacement of the acquire's value, with TOKEN for the
// token variable: the token itself where a string fits, []byte(TOKEN)
// where the value is a byte slice.
func valueText(info *types.Info, a *redisops.Op) (string, bool) {
	want := expectedType(info, a)
	if want == nil {
		return "", false
	}
	str := types.Typ[types.String]
	if types.AssignableTo(str, want) {
		return "TOKEN", true
	}
	if s, ok := want.Underlying().(*types.Slice); ok {
		if b, ok := s.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return "[]byte(TOKEN)", true
		}
	}
	return "", false
}

// expectedType is the type the acquire's value is given to: the parameter
// of the call it is an argument of, or the field of the composite literal
// it is an element of. nil when neither.
func expectedType(info *types.Info, a *redisops.Op) types.Type {
	var want types.Type
	v := a.Value
	ast.Inspect(a.Call, func(n ast.Node) bool {
		if want != nil || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			sig, ok := info.TypeOf(n.Fun).(*types.Signature)
			if !ok {
				return true
			}
			for i, arg := range n.Args {
				if arg != v {
					continue
				}
				ps := sig.Params()
				switch {
				case sig.Variadic() && i >= ps.Len()-1:
					if n.Ellipsis.IsValid() {
						return false
					}
					want = ps.At(ps.Len() - 1).Type().(*types.Slice).Elem()
				case i < ps.Len():
					want = ps.At(i).Type()
				}
				return false
			}
		case *ast.CompositeLit:
			st, ok := info.TypeOf(n).Underlying().(*types.Struct)
			if !ok {
				if p, isPtr := info.TypeOf(n).Underlying().(*types.Pointer); isPtr {
					st, ok = p.Elem().Underlying().(*types.Struct)
				}
			}
			if !ok {
				return true
			}
			for _, e := range n.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok || kv.Value != v {
					continue
				}
				if id, ok := kv.Key.(*ast.Ident); ok {
					for i := range st.NumFields() {
						if st.Field(i).Name() == id.Name {
							want = st.Field(i).Type()
						}
					}
				}
				return false
			}
		}
		return true
	})
	return want
}

// insertion finds where the token is declared: before the statement that
// holds the acquire, in the innermost statement list that holds the
// acquire and, after that statement, every release.
func insertion(a *redisops.Op, dels []*redisops.Op) (ast.Stmt, token.Pos, bool) {
	for c := range a.Cursor.Enclosing() {
		if c.Node() == a.Func.Node {
			break
		}
		stmts := astx.StmtList(c.Node())
		i := slices.IndexFunc(stmts, func(s ast.Stmt) bool { return astx.Encloses(s, a.Call) })
		if i < 0 {
			continue
		}
		s := stmts[i]
		switch s.(type) {
		case *ast.CaseClause, *ast.CommClause:
			// A clause of a switch or select: nothing can be declared
			// before it; the acquire and a release are in different
			// clauses, so the token goes before the switch.
			continue
		}
		all := true
		for _, d := range dels {
			if d.Call.Pos() < s.Pos() || d.Call.End() > stmts[len(stmts)-1].End() {
				all = false
			}
		}
		if all {
			return s, stmts[len(stmts)-1].End(), true
		}
	}
	return nil, token.NoPos, false
}

// varName picks the token variable's name: "token", or "lockToken",
// "token2", … when the function already uses the name or it means
// something at the insertion. The n-th acquire of the function with a
// plan starts at its own number, so that two plans in one function never
// pick the same name.
func varName(pass *analysis.Pass, file *ast.File, a *redisops.Op, stmt ast.Stmt) (string, bool) {
	used := map[string]bool{}
	ast.Inspect(a.Func.Node, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	nth := 0
	for _, o := range a.Func.Ops {
		if o == a {
			break
		}
		if o.Kind == redisops.Acquire {
			nth++
		}
	}
	for i := range 20 {
		name := "token"
		switch {
		case i+nth == 1:
			name = "lockToken"
		case i+nth > 1:
			name = fmt.Sprintf("token%d", i+nth)
		}
		if !used[name] && fixes.LookupAt(pass, file, name, stmt.Pos()) == nil {
			return name, true
		}
	}
	return "", false
}

// Arg is the fix that replaces e, an argument, with a fresh token: text
// with TOKEN standing for the expression that makes one (rand.Text() from
// Go 1.24, else a call of a newLockToken helper the fix declares). ok is
// false when no name is free for the import or the helper.
func Arg(pass *analysis.Pass, res *redisops.Result, e ast.Expr, text string) (fix analysis.SuggestedFix, ok bool) {
	file := res.FileIndex(pass).At(e.Pos())
	if file == nil {
		return fix, false
	}
	tok, edits, ok := tokenExpr(pass, res, file, e.Pos())
	if !ok {
		return fix, false
	}
	edits = append([]analysis.TextEdit{fixes.Replace(e, strings.ReplaceAll(text, "TOKEN", tok))}, edits...)
	if edits, ok = coalesce(edits); !ok {
		return fix, false
	}
	return analysis.SuggestedFix{Message: fmt.Sprintf("Pass a random token (%s) as the lock's value", tok), TextEdits: edits}, true
}

// tokenExpr is the expression that makes a token at pos in file, with the
// edits it needs: crypto/rand's Text from Go 1.24, else a call of a helper
// declared at the end of the package's first file.
func tokenExpr(pass *analysis.Pass, res *redisops.Result, file *ast.File, pos token.Pos) (string, []analysis.TextEdit, bool) {
	v := pass.TypesInfo.FileVersions[file]
	if v == "" {
		v = pass.Pkg.GoVersion()
	}
	if v != "" && version.Compare(v, "go1.24") >= 0 {
		for _, n := range []string{"rand", "crand"} {
			if q, edits, ok := fixes.Import(pass, file, "crypto/rand", n, pos); ok {
				return q + ".Text()", edits, true
			}
		}
		return "", nil, false
	}
	h := res.Shared(helperKey{}, func() any { return planHelper(pass, res) }).(*helper)
	if !h.ok || fixes.LookupAt(pass, file, h.name, pos) != h.obj {
		return "", nil, false
	}
	return h.name + "()", h.edits, true
}

type helperKey struct{}

// helper is the package-level function that makes tokens for modules
// older than Go 1.24: the same for every plan of the package.
type helper struct {
	name  string
	obj   types.Object // nil: declared by edits
	edits []analysis.TextEdit
	ok    bool
}

const helperDoc = `// %s returns a random value that identifies one acquisition of a lock:
// a release deletes the lock only while it still holds this value.
`

func planHelper(pass *analysis.Pass, res *redisops.Result) *helper {
	files := res.FileIndex(pass)
	var host *ast.File
	for i := range files.Len() {
		f := files.File(i)
		if astx.InTest(pass.Fset, f.Pos()) || ast.IsGenerated(f) {
			continue
		}
		if host == nil || pass.Fset.File(f.Pos()).Name() < pass.Fset.File(host.Pos()).Name() {
			host = f
		}
	}
	if host == nil {
		return &helper{}
	}
	name := "newLockToken"
	for i := 2; pass.Pkg.Scope().Lookup(name) != nil; i++ {
		name = fmt.Sprintf("newLockToken%d", i)
	}
	var edits []analysis.TextEdit
	imp := func(path, base string, alts ...string) (string, bool) {
		for _, n := range append([]string{base}, alts...) {
			if q, e, ok := fixes.Import(pass, host, path, n, host.End()); ok {
				edits = append(edits, e...)
				return q, true
			}
		}
		return "", false
	}
	rnd, ok1 := imp("crypto/rand", "rand", "crand")
	hex, ok2 := imp("encoding/hex", "hex")
	if !ok1 || !ok2 {
		return &helper{}
	}
	body := fmt.Sprintf("\n\n"+helperDoc+"func %s() string {\n\tb := make([]byte, 16)\n\tif _, err := %s.Read(b); err != nil {\n\t\tpanic(err)\n\t}\n\treturn %s.EncodeToString(b)\n}\n",
		name, name, rnd, hex)
	edits = append(edits, analysis.TextEdit{Pos: host.End(), End: host.End(), NewText: []byte(body)})
	return &helper{name: name, edits: edits, ok: true}
}

// declText reports whether text is whole top-level declarations (a
// script variable, a helper function): two of them inserted at one point
// stay two edits, so that another fix's identical declaration is applied
// once with either, where one joined text would declare it twice.
func declText(text []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+string(text), parser.SkipObjectResolution)
	return err == nil && len(f.Decls) > 0 && len(f.Imports) == 0
}

// coalesce sorts edits, drops duplicates, and joins insertions at one
// position (in the order given) but declarations; ok is false when two
// edits overlap.
func coalesce(edits []analysis.TextEdit) ([]analysis.TextEdit, bool) {
	var out []analysis.TextEdit
	for _, e := range edits {
		if e.End == token.NoPos {
			e.End = e.Pos
		}
		dup := false
		for i, o := range out {
			switch {
			case o.Pos == e.Pos && o.End == e.End && string(o.NewText) == string(e.NewText):
				dup = true
			case o.Pos == o.End && e.Pos == e.End && o.Pos == e.Pos && !(declText(o.NewText) && declText(e.NewText)):
				out[i].NewText = append(slices.Clip(o.NewText), e.NewText...)
				dup = true
			}
		}
		if !dup {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(x, y analysis.TextEdit) int { return int(x.Pos) - int(y.Pos) })
	for i := 1; i < len(out); i++ {
		if out[i].Pos < out[i-1].End {
			return nil, false
		}
	}
	return out, true
}
