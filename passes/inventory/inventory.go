// Package inventory lists the lock sites of a package: every acquire with
// its key pattern, client, acquire form, TTL, how the lock is released and
// renewed. It is not a check: it reports nothing. Its Result feeds
// `lockvet inventory` (a list for reviewers and operators) and `lockvet
// live` (which scans a running Redis for lock keys with no TTL, the
// signature of a lock that is held forever).
//
// What is a lock and which operation releases or renews it comes from
// redisops and lockid, plus two links lockid does not make:
//
//   - key patterns: a release or renewal whose key has the same pattern as
//     the acquire's (lock:job:* from lockKey(job) on both sides), where
//     the pattern has a literal part;
//   - fields: a release or renewal of the struct field the acquire's key
//     is stored in (&Lock{key: key} … l.key).
//
// A helper function whose parameter is released, renewed or acquired is
// followed across packages by Link: its callers' arguments give the
// helper's lock its key pattern, and a call of a releasing helper with an
// acquire's key pattern releases that lock.
package inventory

import (
	"cmp"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Release forms.
const (
	ReleaseScript = "owner-checked script" // compare-and-delete Lua script
	ReleaseDelEx  = "DELEX"                // DELEX key IFEQ token (Redis ≥ 8.4)
	ReleaseDel    = "bare DEL"             // DEL/UNLINK, EXPIRE 0, or a script that deletes without comparing
	ReleaseNone   = "none"
)

// Renewal forms.
const (
	RenewChecked = "owner-checked" // compare-and-expire Lua script
	RenewBare    = "bare"          // EXPIRE/PEXPIRE, or a script that expires without comparing
	RenewNone    = "none"
)

// Pattern sources.
const (
	FromKey     = "key"     // derived from the key expression
	FromField   = "field"   // from the values stored in the struct field the key is read from
	FromCallers = "callers" // the key is a parameter: from the arguments of its callers
	FromNone    = "unknown" // nothing with a literal part was found
)

// Site is one lock acquire.
type Site struct {
	Pos       token.Position // the acquire call
	Package   string         // import path
	Func      string         // enclosing function, e.g. (*Scheduler).tryLock
	Key       string         // key expression as written
	Patterns  []string       // Redis glob patterns of the key, sorted
	Source    string         // where Patterns come from: FromKey, FromField, FromCallers, FromNone
	Client    string         // client family (redisops Op.Client), e.g. go-redis/v9
	Acquire   string         // the acquire method (redisops Op.Method), e.g. SetNX
	Scope     string         // direct, pipeline or transaction
	TTL       TTL
	Releases  []Action
	Renewals  []Action
	Test      bool // in a _test.go file
	Generated bool // in a generated file

	Findings []Finding // attached by the caller (the CLI), see Spans

	spans     []Span
	fields    []string // struct fields the key is read from or stored in
	keyParam  int      // index of the parameter the key is, or -1
	ttlParam  int      // index of the parameter the TTL is, or -1
	ttlUnit   redisops.Unit
	funcID    string // full name of the enclosing function declaration
	renewUnkn bool   // a renewal's TTL is not a constant
}

// TTL is the TTL the code gives a lock.
type TTL struct {
	// Expr is the TTL expression as written ("" when the acquire sets
	// none and nothing in its function gives it one).
	Expr string
	// Value is the constant value ("15s"), or "" when Expr is not constant.
	Value string
	// Millis is Value in milliseconds (0 when unknown).
	Millis int64
	// None: the lock is taken with no TTL and nothing gives it one.
	None bool
	// Separate is the EXPIRE that gives the lock its TTL in a second
	// command, when the acquire sets none (LV101's pattern).
	Separate *Action
}

// Action is one release or renewal of a lock.
type Action struct {
	Form    string         // a Release* or Renew* constant
	Command string         // the operation, e.g. Del, Run (compare-and-delete script), Expire
	Pos     token.Position // the operation
	TTL     string         // for a renewal: the TTL expression, if any
	// Via is, when the operation is in a helper reached through a call,
	// the helper's full name, and At that call.
	Via string
	At  token.Position

	millis int64 // renewal TTL in ms, 0 unknown
	span   Span
}

// Span is a range of source, for attaching findings to sites.
type Span struct {
	Filename   string
	Start, End int // byte offsets
}

// Contains reports whether p lies in s.
func (s Span) Contains(p token.Position) bool {
	return p.Filename == s.Filename && s.Start <= p.Offset && p.Offset <= s.End
}

// Finding is a check's finding on one of a site's operations.
type Finding struct {
	Rule    string
	Message string
	Pos     token.Position
}

// Spans are the source ranges of the site's operations: the acquire, the
// separate EXPIRE, each release and renewal and the helper calls that
// lead to them. A finding whose position lies in one is about the site.
func (s *Site) Spans() []Span { return s.spans }

// Release is the site's release forms, distinct, joined ("none" when the
// inventory found no release).
func (s *Site) Release() string { return forms(s.Releases, ReleaseNone) }

// Renewal is the site's renewal forms, like Release.
func (s *Site) Renewal() string { return forms(s.Renewals, RenewNone) }

func forms(as []Action, none string) string {
	var fs []string
	for _, a := range as {
		if !slices.Contains(fs, a.Form) {
			fs = append(fs, a.Form)
		}
	}
	if len(fs) == 0 {
		return none
	}
	slices.Sort(fs)
	return strings.Join(fs, ", ")
}

// MaxTTL is the longest TTL, in milliseconds, the code gives the lock at
// acquire or renewal, or 0 when one of them is not a known constant.
func (s *Site) MaxTTL() int64 {
	if s.TTL.Millis <= 0 || s.renewUnkn {
		return 0
	}
	m := s.TTL.Millis
	for _, r := range s.Renewals {
		if r.millis <= 0 {
			return 0
		}
		m = max(m, r.millis)
	}
	return m
}

// Result is the inventory of one package.
type Result struct {
	Sites []*Site

	helpers []helper
	uses    func(funcID string, param int) []use
	pkg     string          // the package's path
	imports map[string]bool // the paths it imports
}

// mayCall reports whether the package can call functions of package path.
func (r *Result) mayCall(path string) bool { return r.pkg == path || r.imports[path] }

// helper is a function whose parameter is a lock key: acquired (site),
// released or renewed (action) inside it.
type helper struct {
	pkg    string // the helper's package
	funcID string
	param  int
	site   *Site
	action *Action
	renew  bool
}

// use is one argument passed to a helper's parameter.
type use struct {
	pattern string
	field   string
	value   constant.Value // for TTL parameters
	call    token.Position
	span    Span
}

// Analyzer is the inventory over the default redisops analyzer.
var Analyzer = New(redisops.Analyzer)

// New returns the inventory analyzer reading ops (the same redisops
// analyzer the checks it runs beside require).
func New(ops *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "inventory",
		Doc:        "inventory: list lock sites (key pattern, client, acquire form, TTL, release and renewal) for lockvet inventory and lockvet live; reports nothing",
		URL:        "https://github.com/lockvet/lockvet",
		Requires:   []*analysis.Analyzer{ops},
		ResultType: reflect.TypeFor[*Result](),
		Run: func(pass *analysis.Pass) (any, error) {
			return run(pass, pass.ResultOf[ops].(*redisops.Result)), nil
		},
	}
}

type inv struct {
	pass  *analysis.Pass
	res   *redisops.Result
	locks *lockid.Locks
	g     *globber
	out   *Result

	fieldPatterns map[string][]string // field ID → patterns of values stored in it
}

// keyRef is what links a key expression to a lock: its pattern and the
// field it reads.
type keyRef struct {
	pattern string
	field   string
	param   int    // index of the parameter of a function declaration the key is, or -1
	funcID  string // that function's full name
}

func run(pass *analysis.Pass, res *redisops.Result) *Result {
	out := &Result{pkg: pass.Pkg.Path(), imports: map[string]bool{}}
	for _, imp := range pass.Pkg.Imports() {
		out.imports[imp.Path()] = true
	}
	var acquires []*redisops.Op
	for _, op := range res.Ops {
		if op.Kind == redisops.Acquire && op.Key() != nil && op.Func != nil && op.Via == nil {
			acquires = append(acquires, op)
		}
	}
	in := &inv{pass: pass, res: res, locks: lockid.New(pass, res), g: newGlobber(pass.TypesInfo, pass.Pkg, pass.Files), out: out}
	out.uses = in.uses

	// Expires that give a TTL-less acquire its TTL: not renewals.
	first := map[*redisops.Op]*redisops.Op{}
	for _, a := range acquires {
		if e := in.firstExpire(a); e != nil {
			first[a] = e
		}
	}
	firstSet := map[*redisops.Op]bool{}
	for _, e := range first {
		firstSet[e] = true
	}

	for _, a := range acquires {
		out.Sites = append(out.Sites, in.site(a, first[a]))
	}

	// Releases and renewals.
	for _, op := range res.Ops {
		if op.Via != nil {
			continue // a call of a summarized helper: its own Redis call is listed
		}
		act, renew, key := in.action(op, firstSet)
		if act == nil {
			continue
		}
		ref := in.ref(key, op)
		if ref.param >= 0 && ref.funcID != "" {
			out.helpers = append(out.helpers, helper{pkg: pass.Pkg.Path(), funcID: ref.funcID, param: ref.param, action: act, renew: renew})
		}
		for i, a := range acquires {
			s := out.Sites[i]
			if ev, call := in.locks.Match(a, op, key); ev != 0 && (ev != lockid.SameFunc || lockid.After(a, op)) {
				b := *act
				if call != nil {
					b.Via, b.At = funcName(op.Func), pass.Fset.Position(call.Pos())
					s.spans = append(s.spans, span(pass.Fset, call))
				}
				s.add(b, renew)
			} else if s.linked(ref.pattern, ref.field) {
				s.add(*act, renew)
			}
		}
	}
	// lockid's own release evidence (helpers called from the acquiring
	// function, Lock/Unlock pairs).
	for i, a := range acquires {
		for _, r := range in.locks.Releases(a) {
			if act, _, _ := in.action(r.Op, firstSet); act != nil {
				if r.Call != nil {
					act.Via = funcName(r.Op.Func)
					act.At = pass.Fset.Position(r.Call.Pos())
					out.Sites[i].spans = append(out.Sites[i].spans, span(pass.Fset, r.Call))
				}
				out.Sites[i].add(*act, false)
			}
		}
	}
	for _, s := range out.Sites {
		if s.keyParam >= 0 && s.funcID != "" {
			out.helpers = append(out.helpers, helper{pkg: pass.Pkg.Path(), funcID: s.funcID, param: s.keyParam, site: s})
		}
	}
	return out
}

// firstExpire finds the EXPIRE that gives a TTL-less acquire its TTL: the
// same key, later in the same function.
func (in *inv) firstExpire(a *redisops.Op) *redisops.Op {
	if !a.NoTTL {
		return nil
	}
	for _, e := range a.Func.Ops {
		if e.Kind == redisops.Expire && e.Key() != nil && e.TTL != nil && !e.DeletesKey() &&
			keyid.Same(a.KeyForm(), e.KeyForm()) && lockid.After(a, e) {
			return e
		}
	}
	return nil
}

func (in *inv) site(a *redisops.Op, expire *redisops.Op) *Site {
	pass := in.pass
	s := &Site{
		Pos:      pass.Fset.Position(a.Call.Pos()),
		Package:  pass.Pkg.Path(),
		Func:     funcName(a.Func),
		Key:      fixes.Text(pass.Fset, a.Key()),
		Client:   a.Client,
		Acquire:  a.Method,
		Scope:    scopeName(a.Scope),
		Test:     astx.InTest(pass.Fset, a.Call.Pos()),
		keyParam: -1,
		ttlParam: -1,
		ttlUnit:  a.TTLUnit,
	}
	for _, f := range pass.Files {
		if f.FileStart <= a.Call.Pos() && a.Call.Pos() <= f.FileEnd {
			s.Generated = ast.IsGenerated(f)
		}
	}
	if _, ok := a.Func.Node.(*ast.FuncLit); ok {
		for c := range a.Cursor.Enclosing((*ast.FuncDecl)(nil)) {
			s.Func = "func literal in " + funcName(&redisops.Func{Node: c.Node()})
			break
		}
	}
	s.spans = append(s.spans, span(pass.Fset, a.Call))

	ref := in.ref(a.Key(), a)
	switch {
	case Useful(ref.pattern):
		s.Patterns, s.Source = []string{ref.pattern}, FromKey
	case ref.field != "" && len(in.patternsOf(ref.field)) > 0:
		s.Patterns, s.Source = in.patternsOf(ref.field), FromField
	default:
		s.Source = FromNone
		s.keyParam, s.funcID = ref.param, ref.funcID
	}
	if ref.field != "" {
		s.fields = append(s.fields, ref.field)
	}
	s.fields = append(s.fields, in.storedIn(a)...)

	// TTL.
	switch {
	case expire != nil:
		s.TTL = in.ttl(expire.TTL, expire.TTLUnit, a.Func)
		s.TTL.Separate = &Action{Command: expire.Method, Pos: pass.Fset.Position(expire.Call.Pos()), span: span(pass.Fset, expire.Call)}
		s.spans = append(s.spans, s.TTL.Separate.span)
		s.ttlUnit = expire.TTLUnit
		if p := in.paramIndex(expire.TTL); p >= 0 {
			s.ttlParam = p
		}
	case a.NoTTL:
		s.TTL = TTL{None: true}
	case a.TTL == nil:
		// The TTL is in a value lockvet cannot read (SetArgs passed as a
		// variable).
		s.TTL = TTL{}
	default:
		s.TTL = in.ttl(a.TTL, a.TTLUnit, a.Func)
		s.ttlParam = in.paramIndex(a.TTL)
	}
	return s
}

// ttl describes a TTL expression.
func (in *inv) ttl(e ast.Expr, unit redisops.Unit, f *redisops.Func) TTL {
	t := TTL{Expr: fixes.Text(in.pass.Fset, e)}
	if tv, ok := in.pass.TypesInfo.Types[e]; ok && tv.Value != nil {
		t.Value, t.Millis = constTTL(tv.Value, unit)
	}
	return t
}

// constTTL renders a constant TTL of the given unit and converts it to
// milliseconds (0 when it is not a positive relative TTL).
func constTTL(v constant.Value, unit redisops.Unit) (string, int64) {
	n, ok := constant.Int64Val(constant.ToInt(v))
	if !ok {
		return v.ExactString(), 0
	}
	var d time.Duration
	switch unit {
	case redisops.Duration:
		d = time.Duration(n)
	case redisops.Seconds:
		if n > math.MaxInt64/int64(time.Second) {
			return v.ExactString(), 0
		}
		d = time.Duration(n) * time.Second
	case redisops.Millis:
		if n > math.MaxInt64/int64(time.Millisecond) {
			return v.ExactString(), 0
		}
		d = time.Duration(n) * time.Millisecond
	default:
		return v.ExactString(), 0
	}
	if d <= 0 {
		return d.String(), 0
	}
	// Clients round a positive TTL under a millisecond up to 1 ms.
	return d.String(), max(1, d.Milliseconds())
}

// paramIndex is the index of e among the parameters of a function
// declaration when e is one of them, never assigned; or -1.
func (in *inv) paramIndex(e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	v, ok := in.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return -1
	}
	d := in.g.declaring(v)
	if d.fn == nil || d.param < 0 || assigned(in.pass.TypesInfo, d.body, v, 0) {
		return -1
	}
	return d.param
}

// ref computes the key reference of key, used by op.
func (in *inv) ref(key ast.Expr, op *redisops.Op) keyRef {
	r := keyRef{param: -1}
	if key == nil || op.Func == nil {
		return r
	}
	p, param := in.g.glob(key, op.Func.Body, nil)
	r.pattern = p
	if param != nil {
		if d := in.g.declaring(param); d.fn != nil {
			r.param, r.funcID = d.param, declID(in.pass.TypesInfo, d.fn)
		}
	}
	r.field = in.fieldOf(key, op.Func.Body)
	return r
}

// fieldOf is the field ID of a key that reads a struct field (directly or
// through a local defined from it), or "".
func (in *inv) fieldOf(e ast.Expr, body *ast.BlockStmt) string {
	info := in.pass.TypesInfo
	for range maxDepth {
		e = ast.Unparen(e)
		switch x := e.(type) {
		case *ast.SelectorExpr:
			return fieldID(info, x)
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			if !ok || v.Pkg() != in.pass.Pkg || v.Parent() == in.pass.Pkg.Scope() {
				return ""
			}
			init := in.g.initOf(v, body)
			if init == nil {
				return ""
			}
			e = init
		default:
			return ""
		}
	}
	return ""
}

// fieldID names a field selection: pkgpath.Type.field.
func fieldID(info *types.Info, sel *ast.SelectorExpr) string {
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return ""
	}
	return fieldVarID(s.Recv(), s.Obj().(*types.Var))
}

func fieldVarID(recv types.Type, f *types.Var) string {
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	n, ok := types.Unalias(recv).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + f.Name()
}

// patternsOf lists the useful patterns of the values the package stores in
// field (composite literals and assignments); none when one of them has
// no literal part.
func (in *inv) patternsOf(field string) []string {
	if in.fieldPatterns == nil {
		in.fieldPatterns = map[string][]string{}
		bad := map[string]bool{}
		info := in.pass.TypesInfo
		add := func(id string, v ast.Expr, body *ast.BlockStmt) {
			if id == "" {
				return
			}
			p, _ := in.g.glob(v, body, nil)
			if !Useful(p) {
				bad[id] = true
				return
			}
			if !slices.Contains(in.fieldPatterns[id], p) {
				in.fieldPatterns[id] = append(in.fieldPatterns[id], p)
			}
		}
		for _, f := range in.pass.Files {
			var bodies []*ast.BlockStmt
			ast.Inspect(f, func(n ast.Node) bool {
				if n == nil {
					return false
				}
				for len(bodies) > 0 && n.Pos() >= bodies[len(bodies)-1].End() {
					bodies = bodies[:len(bodies)-1]
				}
				var body *ast.BlockStmt
				if len(bodies) > 0 {
					body = bodies[len(bodies)-1]
				}
				switch n := n.(type) {
				case *ast.FuncDecl:
					if n.Body != nil {
						bodies = append(bodies, n.Body)
					}
				case *ast.FuncLit:
					bodies = append(bodies, n.Body)
				case *ast.CompositeLit:
					t := info.TypeOf(n)
					for _, e := range n.Elts {
						kv, ok := e.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						id, ok := kv.Key.(*ast.Ident)
						if !ok {
							continue
						}
						if fv, ok := info.Uses[id].(*types.Var); ok && fv.IsField() && t != nil {
							add(fieldVarID(t, fv), kv.Value, body)
						}
					}
				case *ast.AssignStmt:
					if len(n.Lhs) == len(n.Rhs) {
						for i, l := range n.Lhs {
							if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
								add(fieldID(info, sel), n.Rhs[i], body)
							}
						}
					}
				}
				return true
			})
		}
		for id := range bad {
			delete(in.fieldPatterns, id)
		}
		for _, ps := range in.fieldPatterns {
			slices.Sort(ps)
		}
	}
	return in.fieldPatterns[field]
}

// storedIn lists the fields the acquire's key is stored in by its
// function: &Lock{key: key}, l.key = key.
func (in *inv) storedIn(a *redisops.Op) []string {
	info := in.pass.TypesInfo
	var out []string
	ast.Inspect(a.Func.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			t := info.TypeOf(n)
			for _, e := range n.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				id, ok := kv.Key.(*ast.Ident)
				if !ok {
					continue
				}
				if fv, ok := info.Uses[id].(*types.Var); ok && fv.IsField() && t != nil && a.Func.Scope().Same(a.Key(), kv.Value) {
					out = append(out, fieldVarID(t, fv))
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && a.Func.Scope().Same(a.Key(), n.Rhs[i]) {
						if id := fieldID(info, sel); id != "" {
							out = append(out, id)
						}
					}
				}
			}
		}
		return true
	})
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}

// action classifies op as a release or renewal and returns its key.
func (in *inv) action(op *redisops.Op, first map[*redisops.Op]bool) (act *Action, renew bool, key ast.Expr) {
	if op.Func == nil || op.KeysSpread || len(op.Keys) == 0 {
		return nil, false, nil
	}
	a := &Action{Command: op.Method, Pos: in.pass.Fset.Position(op.Call.Pos()), span: span(in.pass.Fset, op.Call)}
	switch op.Kind {
	case redisops.Delete:
		if len(op.Keys) != 1 {
			return nil, false, nil
		}
		a.Form = ReleaseDel
	case redisops.CompareDelete:
		a.Form = ReleaseDelEx
	case redisops.Expire:
		if op.TTL == nil || first[op] {
			return nil, false, nil
		}
		if op.DeletesKey() {
			a.Form = ReleaseDel
			a.Command += " 0"
			break
		}
		a.Form, renew = RenewBare, true
		a.TTL = fixes.Text(in.pass.Fset, op.TTL)
		if tv, ok := in.pass.TypesInfo.Types[op.TTL]; ok && tv.Value != nil {
			_, a.millis = constTTL(tv.Value, op.TTLUnit)
		}
	case redisops.Script:
		if op.ScriptSrc == "" {
			return nil, false, nil
		}
		sc := lua.Classify(op.ScriptSrc)
		switch sc.Kind {
		case lua.CompareAndDelete:
			a.Form = ReleaseScript
			a.Command += " (compare-and-delete script)"
		case lua.UncheckedDelete:
			a.Form = ReleaseDel
			a.Command += " (script deleting without an owner check)"
		case lua.CompareAndExpire, lua.UncheckedExpire:
			a.Form, renew = RenewChecked, true
			a.Command += " (compare-and-expire script)"
			if sc.Kind == lua.UncheckedExpire {
				a.Form = RenewBare
				a.Command = op.Method + " (script expiring without an owner check)"
			}
			if sc.TTLArg > 0 && sc.TTLArg <= len(op.Args) {
				arg := op.Args[sc.TTLArg-1]
				a.TTL = fixes.Text(in.pass.Fset, arg)
				if tv, ok := in.pass.TypesInfo.Types[arg]; ok && tv.Value != nil {
					u := redisops.Seconds
					if sc.TTLMillis {
						u = redisops.Millis
					}
					_, a.millis = constTTL(tv.Value, u)
				}
			}
		default:
			return nil, false, nil
		}
	default:
		return nil, false, nil
	}
	return a, renew, op.Keys[0]
}

// linked reports whether a key with this pattern or field names s's lock.
func (s *Site) linked(pattern, field string) bool {
	if Useful(pattern) && slices.Contains(s.Patterns, pattern) {
		return true
	}
	return field != "" && slices.Contains(s.fields, field)
}

// add records an action, once per operation and helper call.
func (s *Site) add(a Action, renew bool) {
	list := &s.Releases
	if renew {
		list = &s.Renewals
		if a.millis <= 0 {
			s.renewUnkn = true
		}
	}
	for _, b := range *list {
		if b.Pos == a.Pos && b.At == a.At {
			return
		}
	}
	*list = append(*list, a)
	s.spans = append(s.spans, a.span)
}

// uses lists the package's calls of the function funcID and the argument
// each passes as parameter param.
func (in *inv) uses(id string, param int) []use {
	info := in.pass.TypesInfo
	var out []use
	for _, f := range in.pass.Files {
		var bodies []*ast.BlockStmt
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			for len(bodies) > 0 && n.Pos() >= bodies[len(bodies)-1].End() {
				bodies = bodies[:len(bodies)-1]
			}
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body != nil {
					bodies = append(bodies, n.Body)
				}
			case *ast.FuncLit:
				bodies = append(bodies, n.Body)
			case *ast.CallExpr:
				fn, ok := typeutil.Callee(info, n).(*types.Func)
				if !ok || fn.FullName() != id || param >= len(n.Args) || n.Ellipsis.IsValid() || len(bodies) == 0 {
					return true
				}
				body := bodies[len(bodies)-1]
				arg := n.Args[param]
				u := use{call: in.pass.Fset.Position(n.Pos()), span: span(in.pass.Fset, n)}
				u.pattern, _ = in.g.glob(arg, body, nil)
				u.field = in.fieldOf(arg, body)
				if u.field != "" && !Useful(u.pattern) {
					if ps := in.patternsOf(u.field); len(ps) == 1 {
						u.pattern = ps[0]
					}
				}
				if tv, ok := info.Types[arg]; ok {
					u.value = tv.Value
				}
				out = append(out, u)
			}
			return true
		})
	}
	return out
}

// Link completes the sites of several packages (one program's, as the
// CLI loads them) with what crosses package and function boundaries:
// the key patterns and TTLs of helpers that take the key and TTL as
// parameters (from their callers' arguments), and releases and renewals
// done by calling a helper with the lock's key. It returns every site,
// sorted by position.
func Link(results []*Result) []*Site {
	// Helpers that acquire: patterns and TTLs from the callers.
	for _, r := range results {
		for _, h := range r.helpers {
			if h.site == nil {
				continue
			}
			s := h.site
			var ttls []use
			allTTL := s.ttlParam >= 0
			for _, q := range results {
				if !q.mayCall(h.pkg) {
					continue
				}
				for _, u := range q.uses(h.funcID, h.param) {
					if Useful(u.pattern) && !slices.Contains(s.Patterns, u.pattern) {
						s.Patterns = append(s.Patterns, u.pattern)
					}
				}
				if s.ttlParam >= 0 {
					for _, u := range q.uses(h.funcID, s.ttlParam) {
						ttls = append(ttls, u)
						allTTL = allTTL && u.value != nil
					}
				}
			}
			if len(s.Patterns) > 0 {
				slices.Sort(s.Patterns)
				s.Source = FromCallers
			}
			if allTTL && len(ttls) > 0 {
				var vals []string
				for _, u := range ttls {
					v, ms := constTTL(u.value, s.ttlUnit)
					if ms <= 0 {
						vals = nil
						break
					}
					if !slices.Contains(vals, v) {
						vals = append(vals, v)
					}
					s.TTL.Millis = max(s.TTL.Millis, ms)
				}
				if vals == nil {
					s.TTL.Millis = 0
				} else {
					s.TTL.Value = strings.Join(vals, ", ") + " (from callers)"
				}
			}
		}
	}
	var sites []*Site
	for _, r := range results {
		sites = append(sites, r.Sites...)
	}
	// Helpers that release or renew, called with a lock's key.
	for _, r := range results {
		for _, h := range r.helpers {
			if h.action == nil {
				continue
			}
			for _, q := range results {
				if !q.mayCall(h.pkg) {
					continue
				}
				for _, u := range q.uses(h.funcID, h.param) {
					for _, s := range sites {
						if !s.linked(u.pattern, u.field) {
							continue
						}
						a := *h.action
						a.Via, a.At = shortName(h.funcID), u.call
						s.add(a, h.renew)
						s.spans = append(s.spans, u.span)
					}
				}
			}
		}
	}
	for _, s := range sites {
		sortActions(s.Releases)
		sortActions(s.Renewals)
	}
	slices.SortStableFunc(sites, func(a, b *Site) int { return comparePos(a.Pos, b.Pos) })
	return sites
}

func sortActions(as []Action) {
	slices.SortStableFunc(as, func(a, b Action) int {
		return cmp.Or(comparePos(a.Pos, b.Pos), comparePos(a.At, b.At))
	})
}

func comparePos(a, b token.Position) int {
	return cmp.Or(cmp.Compare(a.Filename, b.Filename), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
}

// shortName drops the directories of a function's full name:
// (*example.com/x/lock.Lock).Release → (*lock.Lock).Release.
func shortName(full string) string {
	k, end := 0, len(full)
	if strings.HasPrefix(full, "(") {
		k = 1
		if strings.HasPrefix(full, "(*") {
			k = 2
		}
		if c := strings.IndexByte(full, ')'); c > 0 {
			end = c
		}
	}
	i := strings.LastIndexByte(full[k:end], '/')
	if i < 0 {
		return full
	}
	return full[:k] + full[k+i+1:]
}

func span(fset *token.FileSet, n ast.Node) Span {
	p, e := fset.Position(n.Pos()), fset.Position(n.End())
	return Span{Filename: p.Filename, Start: p.Offset, End: e.Offset}
}

func scopeName(s redisops.Scope) string {
	switch s.Kind {
	case redisops.Pipeline:
		return "pipeline"
	case redisops.Tx:
		return "transaction"
	}
	return "direct"
}

// declID is the full name of a function declaration.
func declID(info *types.Info, d *ast.FuncDecl) string {
	if fn, ok := info.Defs[d.Name].(*types.Func); ok {
		return fn.FullName()
	}
	return ""
}

// funcName is a short name for f: Name, (*T).Name, or "func literal".
func funcName(f *redisops.Func) string {
	if f == nil {
		return ""
	}
	if d, ok := f.Node.(*ast.FuncDecl); ok {
		return astx.FuncName(d)
	}
	return "func literal"
}
