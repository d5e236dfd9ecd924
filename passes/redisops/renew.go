package redisops

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// This file holds the fixes that replace a command by a run of one of
// lockvet's canonical Lua scripts (lua.RenewSrc, lua.UnlockSrc):
//
//   - ScriptVars plans the package-level variable that holds the script
//     object (reusing an equivalent one, or declaring one, with the client
//     package imported in the host file), the same for every fix of a pass;
//   - scriptRunner is the optional adapter capability that knows the
//     client's idiom: which constructor makes a script object, how a run is
//     written (context or not), which receivers can run scripts, and how
//     the replaced command's result is read from the script's result;
//   - Op.Renew is the owner-checked renewal built from both.
//
// ScriptVars and runScript are not specific to renewal: a fix that runs
// another canonical script (a compare-and-delete release) can use them with
// its own source, recognizer of equivalent scripts, and variable name.

// ScriptVars plans the package-level variables that hold script objects
// for one pass's fixes. Every fix that asks for the same script of the same
// client package gets the same variable name and the same declaration edits
// (in a file chosen from the package alone, not from the fix site), so
// that fixes applied together declare it once: identical edits coalesce.
type ScriptVars struct {
	pass  *analysis.Pass
	res   *Result
	plans map[string]*scriptPlan
	names map[string]bool // names of the variables planned so far
}

type scriptPlan struct {
	name  string
	obj   types.Object        // the existing variable; nil for a planned one
	edits []analysis.TextEdit // declaration (and import) of a planned one
	ok    bool
}

// NewScriptVars returns an empty plan for pass, whose redisops result is
// res (where the scan of the package's declarations is shared; nil scans
// anew).
func NewScriptVars(pass *analysis.Pass, res *Result) *ScriptVars {
	return &ScriptVars{pass: pass, res: res, plans: map[string]*scriptPlan{}}
}

// Var returns the name of a package-level variable holding the script
// object for src, made by the constructor ctor of pkg, usable at pos: an
// existing variable initialized by ctor with a constant source that
// satisfies same, or else a new one declared by the returned edits, with
// doc as its comment (a doc starting with name is renamed along). The new
// variable is called name, with the client's family appended when the
// package imports several client packages (renewScriptV8, renewScriptV9),
// and 2, 3, … when that is taken. It goes after the imports of the first
// file, by file name, that imports pkg by name, or of the first file with
// imports when none does (the import is added); test files are used only
// for fixes in test files, generated files never. ok is false when the
// variable would be shadowed at pos or cannot be declared.
func (s *ScriptVars) Var(pos token.Pos, pkg *types.Package, ctor, name, doc, src string, same func(src string) bool) (string, []analysis.TextEdit, bool) {
	return s.varArgs(pos, pkg, ctor, nil, name, doc, src, same)
}

// varArgs is Var for a constructor that takes the arguments lead (constant
// source text) before the source: redigo's NewScript(1, src).
func (s *ScriptVars) varArgs(pos token.Pos, pkg *types.Package, ctor string, lead []string, name, doc, src string, same func(src string) bool) (string, []analysis.TextEdit, bool) {
	inTest := false
	file := fileAt(s.pass, s.res, pos)
	if file != nil {
		inTest = isTestFile(s.pass, file)
	}
	key := fmt.Sprint(pkg.Path(), "\x00", ctor, "\x00", lead, "\x00", src, "\x00", inTest)
	p := s.plans[key]
	if p == nil {
		p = s.plan(inTest, pkg, ctor, lead, name, doc, src, same)
		s.plans[key] = p
	}
	if !p.ok || resolveAt(s.pass, file, p.name, pos) != p.obj {
		return "", nil, false // none, or shadowed at pos
	}
	return p.name, p.edits, true
}

func (s *ScriptVars) plan(inTest bool, pkg *types.Package, ctor string, lead []string, name, doc, src string, same func(string) bool) *scriptPlan {
	pass, info := s.pass, s.pass.TypesInfo
	scan := scanOf(pass, s.res)
	// An existing package-level variable made by the same constructor from
	// an equivalent known source (a constant or an embedded file).
	for _, v := range scan.vars[pkg.Path()] {
		if !inTest && isTestFile(pass, v.file) || v.fn.Name() != ctor {
			continue
		}
		call := v.call
		if len(call.Args) != 1+len(lead) || call.Ellipsis.IsValid() || !leadArgs(info, call.Args, lead) {
			continue
		}
		if src := scriptText(pass, s.res, call.Args[len(lead)]); src != nil && same(*src) && v.id.Name != "_" {
			return &scriptPlan{name: v.id.Name, obj: info.Defs[v.id], ok: true}
		}
	}

	// A new one, in a host file chosen from the package alone.
	h := shared(s.res, hostKey{pkg.Path(), inTest}, func() any { return planHost(pass, scan, pkg, inTest) }).(*scriptHost)
	if h.host == nil {
		return &scriptPlan{}
	}
	importEdits := slices.Clip(h.importEdits) // shared: append copies

	// The name depends on the package only, so that every fix picks the
	// same one.
	base := name
	if h.clients > 1 {
		if fam := goRedisPaths[pkg.Path()] + redigoPaths[pkg.Path()]; fam != "" {
			fam = fam[strings.LastIndex(fam, "/")+1:]
			name += strings.ToUpper(fam[:1]) + fam[1:]
		}
	}
	taken := func(n string) bool { return s.names[n] || scan.taken(pass, n) }
	v := name
	for i := 2; taken(v); i++ {
		v = fmt.Sprintf("%s%d", name, i)
	}
	if s.names == nil {
		s.names = map[string]bool{}
	}
	s.names[v] = true

	lit := "`" + src + "`"
	if strings.Contains(src, "`") {
		lit = strconv.Quote(src)
	}
	var b strings.Builder
	b.WriteString("\n\n")
	if doc = strings.TrimSpace(doc); doc != "" {
		if rest, ok := strings.CutPrefix(doc, base+" "); ok {
			doc = v + " " + rest
		}
		for _, line := range strings.Split(doc, "\n") {
			b.WriteString("// " + line + "\n")
		}
	}
	args := strings.Join(append(slices.Clone(lead), lit), ", ")
	fmt.Fprintf(&b, "var %s = %s%s(%s)", v, h.qual, ctor, args)
	at := afterImports(h.host)
	decl := analysis.TextEdit{Pos: at, End: at, NewText: []byte(b.String())}
	if len(importEdits) == 1 && importEdits[0].Pos == at {
		// No imports yet: one insertion, the import before the variable.
		decl.NewText = slices.Concat(importEdits[0].NewText, decl.NewText)
		importEdits = nil
	}
	return &scriptPlan{name: v, edits: append(importEdits, decl), ok: true}
}

type hostKey struct {
	path   string
	inTest bool
}

// scriptHost is where a new script variable made by a constructor of one
// client package goes: the host file, the client's name there (qual, with
// its dot) and the import to add when the host does not import it; and
// how many client packages the package's files import (a variable per
// client is named after it when there are several).
type scriptHost struct {
	host        *ast.File
	qual        string
	importEdits []analysis.TextEdit
	clients     int
}

func planHost(pass *analysis.Pass, scan *pkgScan, pkg *types.Package, inTest bool) *scriptHost {
	info := pass.TypesInfo
	files := slices.DeleteFunc(slices.Clone(scan.byName), func(f *ast.File) bool {
		return !inTest && isTestFile(pass, f) || ast.IsGenerated(f)
	})
	h := &scriptHost{}
	for _, f := range files {
		if n, ok := importedAs(pass, f, pkg.Path(), afterImports(f)); ok {
			h.host, h.qual = f, n+"."
			break
		}
	}
	if h.host == nil {
		if i := slices.IndexFunc(files, func(f *ast.File) bool { return len(f.Imports) > 0 }); i >= 0 {
			h.host = files[i]
		} else if len(files) > 0 {
			h.host = files[0]
		} else {
			return &scriptHost{}
		}
		// The package's own name, or, when the files already use that
		// name for another package (a module that imports both redigo
		// paths, github.com/garyburd/redigo/redis and
		// github.com/gomodule/redigo/redis, as redis), its family's name.
		// The script must come from the package of the connection's Do:
		// an older redigo's Script.Do recognises NOSCRIPT only by its own
		// Error type, so another redigo's script never loads.
		names := []string{pkg.Name()}
		if redigoPaths[pkg.Path()] != "" {
			names = append(names, "redigo")
		}
		free := func(n string) bool {
			return pass.Pkg.Scope().Lookup(n) == nil && (info.Scopes[h.host] == nil || info.Scopes[h.host].Lookup(n) == nil)
		}
		i := slices.IndexFunc(names, free)
		if i < 0 {
			return &scriptHost{}
		}
		alias := ""
		if i > 0 {
			alias = names[i]
		}
		h.qual, h.importEdits = names[i]+".", addImport(h.host, pkg.Path(), alias)
	}
	h.clients = scriptClients(pass, files, inTest)
	return h
}

// scriptClients counts the client packages with script objects that
// files (test files only when inTest) import: a package that uses several
// gets one script variable per client, named after it.
func scriptClients(pass *analysis.Pass, files []*ast.File, inTest bool) int {
	clients := map[string]bool{}
	for _, f := range files {
		if !inTest && isTestFile(pass, f) {
			continue
		}
		for _, spec := range f.Imports {
			if p, err := strconv.Unquote(spec.Path.Value); err == nil && (goRedisPaths[p] != "" || redigoPaths[p] != "" || p == rueidisNative.path || p == valkeyNative.path) {
				clients[p] = true
			}
		}
	}
	return len(clients)
}

// addImport returns the edit that imports path into file: a group of its
// own at the end of the import block (gofmt keeps it apart from the
// standard library), a declaration after the last one, or one after the
// package clause; under the name alias when it is not "".
func addImport(file *ast.File, path, alias string) []analysis.TextEdit {
	spec := strconv.Quote(path)
	if alias != "" {
		spec = alias + " " + spec
	}
	var last *ast.GenDecl
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			last = gd
		}
	}
	switch {
	case last == nil:
		at := file.Name.End()
		return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte("\n\nimport " + spec)}}
	case last.Lparen.IsValid():
		return []analysis.TextEdit{{Pos: last.Rparen, End: last.Rparen, NewText: []byte("\n\t" + spec + "\n")}}
	default:
		return []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: []byte("\nimport " + spec)}}
	}
}

// afterImports is where a package-level declaration goes: after the last
// import declaration, or after the package clause.
func afterImports(file *ast.File) token.Pos {
	at := file.Name.End()
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			at = gd.End()
		}
	}
	return at
}

// renewDoc is the comment on a renewal script variable a fix declares.
const renewDoc = `renewScript extends a lock's TTL (ARGV[2], in milliseconds) only while
the key still holds this process's token (ARGV[1]).`

// Renew returns edits that replace the Expire o by an owner-checked
// renewal: the compare-and-pexpire script lua.RenewSrc (or an equivalent
// script variable already in the package), run on o's receiver with o's
// key, the owner token (token, source text of an expression in scope at
// o) and o's TTL in milliseconds. It fails when the client has no script
// support here, when o's TTL is not a typed time.Duration of at least a
// millisecond (unless the adapter writes the TTL argument itself, see
// ttlArger), when the expire's mode has no compare-and-pexpire
// equivalent, or when o's result is used in a way the script's result
// cannot replace.
func (o *Op) Renew(pass *analysis.Pass, vars *ScriptVars, token string) ([]analysis.TextEdit, bool) {
	sr, ok := o.adapter.(scriptRunner)
	if !ok || o.Kind != Expire || !sr.renewable(o) || o.TTL == nil || len(o.Keys) != 1 {
		return nil, false
	}
	ms, argEdits, ok := scriptTTL(pass, sr, o)
	if !ok {
		return nil, false
	}
	v, declEdits, ok := scriptVar(pass, vars, sr, o, "renewScript", renewDoc, lua.RenewSrc, isRenewScript)
	if !ok {
		return nil, false
	}
	run, ok := sr.runScript(pass, o, v, []string{fixes.Text(pass.Fset, o.Keys[0])}, []string{token, ms})
	if !ok {
		return nil, false
	}
	return append(append(declEdits, argEdits...), run...), true
}

// RenewWhy says in a few words why Renew has no rewrite of the Expire o
// (with a token at hand), following Renew's own steps; "" when it has one
// or when o is no Expire.
func (o *Op) RenewWhy(pass *analysis.Pass, vars *ScriptVars) string {
	if o.Kind != Expire {
		return ""
	}
	if o.Via != nil {
		return fmt.Sprintf("the %s is in the helper %s at %s", o.Via.Method, o.Via.Name, o.Via.Where)
	}
	sr, ok := o.adapter.(scriptRunner)
	switch {
	case !ok && o.Client == "gomemcache":
		return "memcached has no scripts"
	case !ok:
		return "this client runs no scripts here"
	case o.TTL == nil:
		return "the TTL is not written in the call"
	case !sr.renewable(o):
		return fmt.Sprintf("no compare-and-pexpire does what %s does", o.Method)
	case len(o.Keys) != 1:
		return "not one key"
	}
	if _, _, ok := scriptTTL(pass, sr, o); !ok {
		return "the TTL cannot be passed in milliseconds"
	}
	v, _, ok := scriptVar(pass, vars, sr, o, "renewScript", renewDoc, lua.RenewSrc, isRenewScript)
	if !ok {
		return "no script constructor for this client here"
	}
	if _, ok := sr.runScript(pass, o, v, []string{fixes.Text(pass.Fset, o.Keys[0])}, []string{"token", "0"}); !ok {
		return fmt.Sprintf("the %s's reply is read in a way a script's is not, or its receiver runs no scripts", o.Method)
	}
	return ""
}

// scriptTTL is the TTL of the Expire e as a script argument in
// milliseconds, and the edits it needs: the adapter's own (ttlArger), or
// a typed time.Duration's Milliseconds().
func scriptTTL(pass *analysis.Pass, sr scriptRunner, e *Op) (string, []analysis.TextEdit, bool) {
	if ta, isTA := sr.(ttlArger); isTA {
		return ta.ttlArg(pass, e)
	}
	if e.TTLUnit != Duration {
		return "", nil, false
	}
	ms, ok := durationMillis(pass.TypesInfo, pass.Fset, e.TTL)
	return ms, nil, ok
}

// scriptVar is the package-level variable holding the script src (see
// ScriptVars.Var) made by the constructor of the client that sends o.
func scriptVar(pass *analysis.Pass, vars *ScriptVars, sr scriptRunner, o *Op, name, doc, src string, same func(string) bool) (string, []analysis.TextEdit, bool) {
	pkg, ctor, ok := sr.scriptCtorFor(pass, o)
	if !ok {
		return "", nil, false
	}
	var lead []string
	if ca, isCA := sr.(ctorArger); isCA {
		lead = ca.scriptCtorArgs()
	}
	return vars.varArgs(o.Call.Pos(), pkg, ctor, lead, name, doc, src, same)
}

// leadArgs reports whether the first arguments of a constructor call are
// the constants lead (source text of constants, compared by value).
func leadArgs(info *types.Info, args []ast.Expr, lead []string) bool {
	for i, l := range lead {
		tv, ok := info.Types[args[i]]
		if !ok || tv.Value == nil || tv.Value.ExactString() != l {
			return false
		}
	}
	return true
}

// isRenewScript: compare-and-pexpire with the token in ARGV[1] and the TTL
// in milliseconds in ARGV[2], the argument order Renew passes.
func isRenewScript(src string) bool {
	s := lua.Classify(src)
	return s.Kind == lua.CompareAndExpire && s.TokenArg == 1 && s.TTLArg == 2 && s.TTLMillis
}

// durationMillis returns the source text of e (a time.Duration) in
// milliseconds: e.Milliseconds(). It fails for untyped constants (30 is
// 30ns, not a TTL anyone meant) and constants below one millisecond, whose
// millisecond count is 0 (PEXPIRE 0 deletes the key).
func durationMillis(info *types.Info, fset *token.FileSet, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || !isDuration(tv.Type) || untypedConst(info, e) {
		return "", false
	}
	if tv.Value != nil {
		if tv.Value.Kind() != constant.Int {
			return "", false
		}
		if ns, exact := constant.Int64Val(tv.Value); !exact || ns < 1_000_000 {
			return "", false
		}
	}
	return operand(fixes.Text(fset, e), e, false) + ".Milliseconds()", true
}

func isDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// untypedConst reports whether e is built only from untyped constants
// (literals and untyped named constants), so that it has no methods.
func untypedConst(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return isUntypedConst(info.Uses[e])
	case *ast.SelectorExpr:
		return isUntypedConst(info.Uses[e.Sel])
	case *ast.UnaryExpr:
		return untypedConst(info, e.X)
	case *ast.BinaryExpr:
		return untypedConst(info, e.X) && untypedConst(info, e.Y)
	}
	return false
}

func isUntypedConst(obj types.Object) bool {
	c, ok := obj.(*types.Const)
	if !ok {
		return false
	}
	b, ok := c.Type().(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// ctorIn is a scriptCtorFor for clients whose script constructor ctor is
// a function of the package that declares o's method, when ours accepts
// that package.
func ctorIn(pass *analysis.Pass, o *Op, ctor string, ours func(path string) bool) (*types.Package, string, bool) {
	fn, ok := typeutil.Callee(pass.TypesInfo, o.Call).(*types.Func)
	if !ok || fn.Pkg() == nil || !ours(fn.Pkg().Path()) {
		return nil, "", false
	}
	if _, ok := fn.Pkg().Scope().Lookup(ctor).(*types.Func); !ok {
		return nil, "", false
	}
	return fn.Pkg(), ctor, true
}

// anyPath accepts every package.
func anyPath(string) bool { return true }

// operand is text, the source of e, in parentheses unless e binds tighter
// than any operator: a name, a selector, a call or an index, or a literal
// when lit is set.
func operand(text string, e ast.Expr, lit bool) string {
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr, *ast.IndexExpr:
		return text
	case *ast.BasicLit:
		if lit {
			return text
		}
	}
	return "(" + text + ")"
}

// getSetDoc is the comment on the GETSET-with-TTL script variable a fix
// declares.
const getSetDoc = `getSetScript sets KEYS[1] to ARGV[1] with a TTL of ARGV[2] milliseconds
in one step and replies the old value (nil when there was none), as GETSET
does; GETSET alone leaves the key with no TTL.`

// GetSetTTL returns edits that replace the GETSET o by one step that also
// sets the TTL of the Expire e that follows it: the script lua.GetSetSrc
// (or an equivalent script variable already in the package), run on o's
// receiver with o's key, o's value and e's TTL in milliseconds. The
// script replies what GETSET replies (the old value, or nil), through
// results of the same type, so the code reading it keeps its meaning. It
// works on every Redis version (SET … GET PX needs 6.2). The caller
// deletes e. It fails for clients other than go-redis and redigo, when e
// does not set the TTL whatever the key's current one (NX, GT, LT), when
// e's TTL is not a typed time.Duration of at least a millisecond (a
// redigo EXPIRE: an integer), or when o's result is used in a way the
// script's result cannot replace.
func (o *Op) GetSetTTL(pass *analysis.Pass, vars *ScriptVars, e *Op) ([]analysis.TextEdit, bool) {
	switch o.adapter.(type) {
	case goRedis, redigo:
	default:
		return nil, false
	}
	sr, ok := o.adapter.(scriptRunner)
	if !ok || o.Kind != GetSet || e.Kind != Expire || e.adapter != o.adapter || !sr.renewable(e) ||
		o.Value == nil || len(o.Keys) != 1 || e.TTL == nil {
		return nil, false
	}
	ms, argEdits, ok := scriptTTL(pass, sr, e)
	if !ok {
		return nil, false
	}
	v, declEdits, ok := scriptVar(pass, vars, sr, o, "getSetScript", getSetDoc, lua.GetSetSrc, isGetSetScript)
	if !ok {
		return nil, false
	}
	run, ok := sr.runScript(pass, o, v, []string{fixes.Text(pass.Fset, o.Keys[0])}, []string{fixes.Text(pass.Fset, o.Value), ms})
	if !ok {
		return nil, false
	}
	return append(append(declEdits, argEdits...), run...), true
}

// isGetSetScript: GETSET KEYS[1] ARGV[1] and PEXPIRE with the TTL in
// milliseconds in ARGV[2], the argument order GetSetTTL passes.
func isGetSetScript(src string) bool {
	s := lua.Classify(src)
	return s.Kind == lua.GetSetExpire && s.TTLArg == 2 && s.TTLMillis && getSetArgv1().MatchString(src)
}

var getSetArgv1 = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)redis\.p?call\(\s*['"]getset['"]\s*,\s*keys\[1\]\s*,\s*argv\[1\]\s*\)`)
})
