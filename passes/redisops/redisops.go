// Package redisops is the one place in lockvet that knows Redis client
// libraries. It turns client calls into normalized operations (acquire,
// expire, delete, get, script, …) with their key, value and TTL expressions
// and the pipeline or transaction they run in. It decides nothing: the
// checks under passes/ read its result and decide what is a finding.
//
// Adding a client means adding one adapter file here; no check changes.
package redisops

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/keyid"
)

// Kind is the normalized operation a client call performs.
type Kind uint8

const (
	// Acquire sets a key only if it is absent (SETNX, SET … NX).
	Acquire Kind = iota + 1
	// GetSet replaces a value and clears its TTL (GETSET): the takeover
	// step of the old SETNX lock recipe.
	GetSet
	// Write sets a key unconditionally (SET, SETEX, SET … XX).
	Write
	// Expire sets or changes a key's TTL (EXPIRE, PEXPIRE, EXPIREAT, …).
	Expire
	// Delete removes keys unconditionally (DEL, UNLINK).
	Delete
	// Get reads a key's value.
	Get
	// Script runs a Lua script (EVAL, EVALSHA, Script.Run, …).
	Script
	// CompareDelete deletes a key only while it holds a given value
	// (DELEX key IFEQ value, DELEX key IFDEQ digest; Redis ≥ 8.4): an
	// owner-checked release. Value is the value or digest compared.
	CompareDelete
	// LockTTL is a TTL handed to a lock library for the acquires and
	// renewals it makes itself (an expiry option, a renewal's TTL). It
	// names no key and its outcome is not read: only TTL, TTLUnit and
	// TTLTrunc are set.
	LockTTL
	// Counter moves a number stored at the key (INCR, INCRBY, DECR,
	// HINCRBY, …) and is not read as a lock (incr.go has the INCR that
	// is one): what makes a key a counter, not a claim (lockid's roles).
	Counter
)

var kindNames = [...]string{Acquire: "acquire", GetSet: "getset", Write: "write", Expire: "expire", Delete: "delete", Get: "get", Script: "script", CompareDelete: "comparedelete", LockTTL: "lockttl", Counter: "counter"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// Unit is what a TTL argument means on the wire.
type Unit uint8

const (
	// NoUnit: the operation has no TTL parameter.
	NoUnit Unit = iota
	// Duration: a Go time.Duration the client converts (go-redis).
	Duration
	// Seconds: an integer count of seconds sent as is.
	Seconds
	// Millis: an integer count of milliseconds sent as is.
	Millis
	// Time: an absolute point in time (EXPIREAT, PXAT).
	Time
)

// ScopeKind says how an operation is sent.
type ScopeKind uint8

const (
	// Direct: sent on its own and answered before the next statement.
	Direct ScopeKind = iota
	// Pipeline: queued in a non-transactional pipeline; runs at Exec.
	Pipeline
	// Tx: queued between MULTI and EXEC; runs at Exec, unconditionally.
	Tx
)

// Scope is where an operation runs.
type Scope struct {
	Kind ScopeKind
	// Node is the call that opened the pipeline or transaction: the
	// Pipelined/TxPipelined call for the closure form, the
	// Pipeline()/TxPipeline() call for the value form. Nil for Direct.
	Node *ast.CallExpr
	// Client is the receiver the pipeline was opened on (rdb in
	// rdb.TxPipelined(…)). Nil for Direct.
	Client ast.Expr
	// InWatch is set inside a Watch callback (optimistic transaction).
	InWatch bool
	// Param is set when the batch is the caller's: the operation is
	// queued on a pipeline or connection that is a parameter of its
	// function, and nothing in the function opens or sends that batch
	// (a helper handed a go-redis Pipeliner, or a redigo connection it
	// only Sends on). Node is then the first call queued on it there.
	// The caller may have opened a transaction or a pipeline: Kind is
	// Pipeline either way.
	Param bool
}

// Op is one normalized client operation.
type Op struct {
	Kind   Kind
	Call   *ast.CallExpr
	Cursor inspector.Cursor // cursor at Call
	Client string           // client family, e.g. "go-redis/v9"
	Method string           // the called method or command name, e.g. "SetNX"
	Recv   ast.Expr         // receiver expression, if any

	// Keys are the key expressions (one for most commands). KeysSpread is
	// set when keys are passed as a spread slice (Del(ctx, keys...)) or as
	// a slice value that is not a literal. KeySlice is then that slice,
	// when one slice holds all the keys and nothing else (keys in
	// Del(ctx, keys...), the keys argument of Eval); nil when the keys are
	// unknown otherwise (a key count that is no constant, keys and
	// arguments in one spread slice).
	Keys       []ast.Expr
	KeysSpread bool
	KeySlice   ast.Expr

	// Value is the value written (Acquire, Write, GetSet).
	Value ast.Expr

	// TTL is the TTL expression as written (nil when absent), and TTLUnit
	// what it means. NoTTL is set when the operation certainly leaves the
	// key without an expiry (SETNX, SetNX(…, 0), SET NX with no EX/PX,
	// GETSET). An Expire with a constant TTL ≤ 0 deletes the key instead.
	TTL     ast.Expr
	TTLUnit Unit
	NoTTL   bool
	// TTLTrunc is, for a Duration TTL, the unit the client truncates it to
	// before sending it (time.Second for rueidis' Ex, time.Millisecond for
	// its Px): a positive TTL below TTLTrunc goes out as 0. Zero when the
	// client rounds up or passes the duration on as is.
	TTLTrunc time.Duration
	// TTLWord is the option word that says TTL's unit, where the call
	// writes it: the "EX" or "PX" literal among a command's arguments, the
	// ExSeconds or PxMilliseconds step of a rueidis builder. Nil otherwise
	// (a method whose name fixes the unit, a word held in a constant).
	TTLWord ast.Expr
	// TTLField is set on an acquire whose TTL is an unexported field of
	// the package (l.ttl) that nothing sets to other than 0 (NoTTL is
	// set with it: zerottl.go); TTLZeroAt is where it is set to 0 (a
	// constructor's composite literal element), nil when never set.
	TTLField  *types.Var
	TTLZeroAt ast.Node
	// Overwrites is set on a Write that replaces the value whatever the
	// key holds: SET with no NX, XX, GET or compare word, SETEX, PSETEX,
	// go-redis Set, SetEx and SetArgs with no Mode and no Get.
	Overwrites bool
	// Probe is set on a SET NX of a constant key with a constant TTL of at
	// most 1 ms (the finest any client sends): a start-up check that the
	// connection can write, deleted at once, not a lock, since nothing
	// can be done under a lock that short. Its Kind is Write.
	Probe bool

	// Script is the script source or SHA argument, or the script object
	// the call runs on (Script.Run). Args are the script arguments.
	// ScriptSrc is the Lua source when it is known here: a constant, or
	// the file a package-level variable embeds (//go:embed), passed to an
	// Eval or to the client's script constructor in this package.
	// ScriptSrcExpr is where that constant or variable is written.
	// Otherwise both are empty, and the script's text is unknown.
	Script        ast.Expr
	Args          []ast.Expr
	ScriptSrc     string
	ScriptSrcExpr ast.Expr

	Scope Scope
	Func  *Func // innermost enclosing function

	// Via is, for a call of a summarized function of the analysed code
	// (an inferred wrapper, summary.go), its summary: the op is the one
	// a declaration of it would make (Client "inferred"). Nil otherwise.
	Via *Summary

	adapter  adapter
	forms    []keyid.Form   // the forms of Keys (keyid), read once in add
	res      *Result        // the result holding the op, for what fixes share
	ttlConst constant.Value // TTL's value when it is an integer constant
	srcArg   ast.Expr       // the script source expression when not a constant (embed.go)
	fwd      *redigoCall    // the command a call of a forwarder sends (mirror_forward.go)
	// incrVerdict: a Counter whose INCR answers for a lock (incr.go),
	// made an acquire by incrVerdicts when the package pairs it.
	incrVerdict bool
}

// probe reports whether the acquire o is a connection probe (see Probe):
// a raw client's SET NX (not a lock library's or a declared wrapper's
// acquire, which take a lock by definition) of a constant key, whose TTL
// is a constant of at most 1 ms written with its unit (a Duration built
// from time's units, or a count of milliseconds), and which the client
// does not truncate to 0 (that SET fails: LV104's finding).
func (o *Op) probe(info *types.Info) bool {
	switch o.adapter.(type) {
	case lockLibs, *declared:
		return false
	}
	if o.ttlConst == nil || constant.Sign(o.ttlConst) <= 0 || len(o.Keys) != 1 {
		return false
	}
	if tv, ok := info.Types[o.Keys[0]]; !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return false
	}
	limit := int64(0)
	switch o.TTLUnit {
	case Duration:
		if !timeUnits(info, o.TTL) || o.TTLTrunc > 0 && constant.Compare(o.ttlConst, token.LSS, constant.MakeInt64(int64(o.TTLTrunc))) {
			return false
		}
		limit = int64(time.Millisecond)
	case Millis:
		limit = 1
	}
	return constant.Compare(o.ttlConst, token.LEQ, constant.MakeInt64(limit))
}

// timeUnits reports whether the constant Duration e is written with a
// unit: it names a constant of type time.Duration (time.Millisecond, a
// constant declared from it). A bare 1 is the nanosecond typo LV104 is
// about.
func timeUnits(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		var id *ast.Ident
		switch n := n.(type) {
		case *ast.Ident:
			id = n
		case *ast.SelectorExpr:
			id = n.Sel
		}
		if id == nil {
			return true
		}
		if c, ok := info.Uses[id].(*types.Const); ok {
			if named, ok := c.Type().(*types.Named); ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "time" && named.Obj().Name() == "Duration" {
				found = true
			}
		}
		return !found
	})
	return found
}

// Key is the first key, or nil.
func (o *Op) Key() ast.Expr {
	if len(o.Keys) == 0 {
		return nil
	}
	return o.Keys[0]
}

// KeyArgs are the expressions that name o's keys: Keys, or, when one
// slice holds them all, that slice (KeySlice): the operands a release of
// many locks names them by.
func (o *Op) KeyArgs() []ast.Expr {
	if o.KeySlice != nil {
		return []ast.Expr{o.KeySlice}
	}
	return o.Keys
}

// KeyForm is the form of the first key (keyid.Form): for a call of a
// helper, the helper's key template bound to the call's arguments. The
// zero Form, the same as nothing, when o has no key.
func (o *Op) KeyForm() keyid.Form {
	if len(o.forms) == 0 {
		return keyid.Form{}
	}
	return o.forms[0]
}

// FormOf is the form of k, one of o's keys (the key the operation names,
// through a helper's template), or, for any other expression inside o's
// function, its form there.
func (o *Op) FormOf(k ast.Expr) keyid.Form {
	for i, e := range o.Keys {
		if e == k && i < len(o.forms) {
			return o.forms[i]
		}
	}
	if o.Func == nil {
		return keyid.Form{}
	}
	return o.Func.Scope().Of(k)
}

// readForms reads o's key forms in its function's scope.
func (o *Op) readForms() {
	sc := o.Func.Scope()
	o.forms = make([]keyid.Form, len(o.Keys))
	for i, k := range o.Keys {
		o.forms[i] = sc.Of(k)
	}
	if o.Via != nil && len(o.Keys) == 1 {
		var recv keyid.Form
		if o.Recv != nil {
			recv = sc.Of(o.Recv)
		}
		o.forms[0] = keyid.Bind(o.Via.KeyForm, o.forms[0], recv)
	}
}

// NonPositiveTTL reports whether the TTL is an integer constant ≤ 0, which
// no server takes as a TTL: an Expire with it deletes the key, a SET with
// it fails.
func (o *Op) NonPositiveTTL() bool {
	return o.ttlConst != nil && constant.Sign(o.ttlConst) <= 0
}

// DeletesKey reports whether o is an Expire whose TTL is an integer
// constant ≤ 0: it deletes the key rather than setting its TTL. That is
// LV104's finding; the checks about acquires and renewals leave it alone.
func (o *Op) DeletesKey() bool {
	return o.Kind == Expire && o.NonPositiveTTL()
}

// Func is a function (declaration or literal) that contains operations.
type Func struct {
	Node ast.Node // *ast.FuncDecl or *ast.FuncLit
	Body *ast.BlockStmt
	Ops  []*Op

	info    *types.Info
	res     *Result
	scope   *keyid.Scope // the outermost function around it: where its keys are read
	cfgOnce sync.Once
	cfg     *cfg.CFG
	idx     cfgIdx
	keys    keyIdx
}

// Scope is where f's keys are read (keyid): the function declaration
// around f (f itself, or the one a literal is in).
func (f *Func) Scope() *keyid.Scope { return f.scope }

// Batched returns, for f a function literal that is the callback of the
// call opening a pipeline or transaction (rdb.Pipelined(ctx, func(p) …),
// tx.TxPipelined(ctx, …)), that call, and the innermost function with
// operations that holds it. The callback runs during the call, so what
// holds at the call holds in it. ok is false for every other function.
func (f *Func) Batched() (call *ast.CallExpr, outer *Func, ok bool) {
	lit, isLit := f.Node.(*ast.FuncLit)
	if !isLit || f.res == nil {
		return nil, nil, false
	}
	for _, op := range f.Ops {
		n := op.Scope.Node
		if n == nil || op.Scope.Param || !slices.ContainsFunc(n.Args, func(a ast.Expr) bool { return ast.Unparen(a) == lit }) {
			continue
		}
		for _, g := range f.res.Funcs {
			if g != f && astx.Encloses(g.Node, n) && (outer == nil || astx.Encloses(outer.Node, g.Node)) {
				outer = g
			}
		}
		return n, outer, outer != nil
	}
	return nil, nil, false
}

// Result is redisops' result: every operation in the package, in source
// order, grouped by innermost enclosing function.
type Result struct {
	Ops   []*Op
	Funcs []*Func
	Files map[*ast.File]bool // files that contain operations
	// Inspector is the package's inspector, for checks that need to look
	// beyond operations (callers of a helper, for example).
	Inspector *inspector.Inspector
	// Flushes lists, in source order, the calls that send or drop what a
	// pipeline or transaction has queued (pipe.Exec, pipe.Discard).
	Flushes []*Flush
	// Summaries are the package's inferred wrappers: what each function
	// that takes, releases or renews a lock on a key built from its
	// parameters does (summary.go). Nil when there are none.
	Summaries map[*types.Func]*Summary
	// CtorCalls are the package's calls of constructors of lock types
	// that keep an argument as the lock's value (ctor.go), in source
	// order: constructors of this package and, through facts, of the
	// packages it imports.
	CtorCalls []*CtorCall
	byPos     map[*ast.CallExpr]*Op
	// module is the host's view of the whole module, when it has one
	// (fixes that edit other packages: mirror_eval.go).
	module *lvconfig.Module

	sharedMu sync.Mutex
	shared   map[any]*sharedValue
}

type sharedValue struct {
	once sync.Once
	v    any
}

// Shared returns the value build makes for key, built once per package
// and then shared by every check that reads this result (they may run
// concurrently): work that every check would otherwise repeat, such as
// reading the file's //lockvet: directives or indexing a function's uses,
// is done once. key must be comparable; packages that use Shared define
// their own key types, so their values never collide.
func (r *Result) Shared(key any, build func() any) any {
	r.sharedMu.Lock()
	if r.shared == nil {
		r.shared = map[any]*sharedValue{}
	}
	sv := r.shared[key]
	if sv == nil {
		sv = &sharedValue{}
		r.shared[key] = sv
	}
	r.sharedMu.Unlock()
	sv.once.Do(func() { sv.v = build() })
	return sv.v
}

// Flush is a call on a pipeline or transaction that sends or drops what
// has been queued on it so far: operations queued before it and after it
// run in different batches.
type Flush struct {
	Call   *ast.CallExpr
	Cursor inspector.Cursor // cursor at Call
	Scope  Scope            // the pipeline or transaction flushed
}

// Op returns the operation performed by call, or nil.
func (r *Result) Op(call *ast.CallExpr) *Op { return r.byPos[call] }

// Analyzer finds client operations with the default configuration.
var Analyzer = New(nil)

// New returns a redisops analyzer for cfg. Checks built for the same cfg
// must require the same *analysis.Analyzer.
func New(cfg *lvconfig.Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "redisops",
		Doc:        "redisops: normalize Redis client calls into lock-relevant operations (acquire, expire, delete, get, script) for lockvet's checks",
		URL:        "https://github.com/lockvet/lockvet",
		Requires:   []*analysis.Analyzer{inspect.Analyzer},
		ResultType: reflect.TypeFor[*Result](),
		FactTypes:  []analysis.Fact{new(HelperFact), new(CtorFact)}, // facts.go, ctor.go
		Run:        func(pass *analysis.Pass) (any, error) { return run(pass, cfg) },
	}
}

// NewImporting is New with a source of summaries of imported functions,
// the hook for summaries carried across packages (summary.go):
// imported(pass, fn) returns the summary of fn, a function of another
// package, or nil; names(pass) the short names of the functions it has
// summaries of (the call walk's prefilter). A call of such a function
// becomes an op as a call of a summarized local one does.
func NewImporting(cfg *lvconfig.Config, imported func(*analysis.Pass, *types.Func) *Summary, names func(*analysis.Pass) map[string]bool) *analysis.Analyzer {
	a := New(cfg)
	a.Run = func(pass *analysis.Pass) (any, error) {
		return runWith(pass, cfg, func(b *builder) {
			b.imported = func(fn *types.Func) *Summary { return imported(pass, fn) }
			b.importedNames = names(pass)
		})
	}
	return a
}

// adapters, and the function and method names that can start a match (a
// cheap prefilter before any type lookup). Each adapter file registers its
// adapter from an init function, so adding a client touches no other file.
var (
	adapters []adapter
	names    = map[string]bool{}
)

// register adds an adapter and the names its calls can have. It runs only
// from init functions, before any analysis.
func register(a adapter, callNames []string) {
	adapters = append(adapters, a)
	registerNames(callNames)
}

// registerNames adds names calls can have to the prefilter, for an
// adapter that is not in adapters: one the builder makes per type
// (mirror.go).
func registerNames(callNames []string) {
	for _, n := range callNames {
		names[n] = true
	}
}

func run(pass *analysis.Pass, cfg *lvconfig.Config) (any, error) { return runWith(pass, cfg, nil) }

// runWith is run, with setup (when not nil) applied to the builder
// before the call walk.
func runWith(pass *analysis.Pass, cfg *lvconfig.Config, setup func(*builder)) (any, error) {
	in := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	b := &builder{
		pass: pass,
		res:  &Result{byPos: map[*ast.CallExpr]*Op{}, Files: map[*ast.File]bool{}, Inspector: in, module: cfg.ModuleView()},
		decl: newDeclared(cfg), // the configuration's wrappers (wrappers.go)
		// The inferred wrappers (summary.go). Summaries of imported
		// functions come as facts (facts.go), or through setup
		// (NewImporting, for tests that hand them over).
		inferred: newInferred(),
	}
	b.imported, b.importedNames = importedSummaries(pass, b)
	if setup != nil {
		setup(b)
	}
	for cur := range in.Root().Preorder((*ast.CallExpr)(nil)) {
		b.call(cur)
	}
	if b.newForwarders {
		b.forwardCalls() // mirror_forward.go
	}
	resolveScripts(pass, in, b.res)
	b.incrVerdicts()               // incr.go
	zeroFieldTTLs(pass, in, b.res) // zerottl.go
	b.summarize()
	b.lockCtors() // ctor.go
	if b.decl != nil && b.decl.err != nil {
		return nil, b.decl.err
	}
	exportSummaries(pass, b.res.Summaries)
	exportSummaries(pass, b.forwarders)
	if len(b.res.Summaries) > 0 {
		// Helpers the module's other packages call: a fix at a call
		// of them may be the helpers' own (tokenfix).
		cfg.ModuleView().SetAnalyzed(pass.Pkg, &Analyzed{Pass: pass, Res: b.res})
	}
	return b.res, nil
}

// Analyzed is a package's pass and result, recorded in the host's module
// view (lvconfig.Module.SetAnalyzed) when the package has helpers that
// its importers may call.
type Analyzed struct {
	Pass *analysis.Pass
	Res  *Result
}

// builder is one run: the result it fills, and the pipelines and
// transactions opened so far.
type builder struct {
	pass *analysis.Pass
	res  *Result
	decl *declared

	// inferred makes the ops of calls of summarized functions.
	// imported, when set, returns the summary of an imported function
	// (nil when it has none), and importedNames holds the short names
	// of the functions it knows: the hook for summaries carried across
	// packages (see summary.go).
	inferred      *inferred
	imported      func(fn *types.Func) *Summary
	importedNames map[string]bool
	// ctors are the imported constructors of lock types (ctor.go), and
	// ctorNames their short names (the call walk's prefilter).
	ctors     map[*types.Func]*Ctor
	ctorNames map[string]bool

	// Scopes opened by closures (FuncLit → scope) and by pipeline values
	// (variable → scope).
	closureScopes map[*ast.FuncLit]closureScope
	valueScopes   map[types.Object]Scope
	funcs         map[ast.Node]*Func
	keyScopes     map[ast.Node]*keyid.Scope // by outermost function

	// mirror holds the run's decisions about the types that mirror a
	// client, by mirrorKey (mirror.go); forwarders the package's forwarders
	// of redigo's generic call (mirror_forward.go), newForwarders set
	// when some have calls not looked at yet.
	mirror        map[types.Type]*mirrorType
	forwarders    map[*types.Func]*Summary
	newForwarders bool
}

// call records what the call at cur does: an op, a pipeline or
// transaction it opens, a batch it flushes, or nothing.
func (b *builder) call(cur inspector.Cursor) {
	if b.ctorNames != nil && b.ctorCall(cur) {
		return
	}
	call := cur.Node().(*ast.CallExpr)
	fn, recv, ad := b.match(call)
	if ad == b.inferred && ad != nil {
		sum := b.imported(fn.Origin())
		if sum.Forward != "" {
			b.forwardOp(cur, fn, recv, sum) // mirror_forward.go
			return
		}
		if op := b.inferred.opFor(b.pass, call, fn, sum); op != nil {
			op.Scope = b.queuedScope(cur, call, sum)
			b.add(cur, op, ad, recv)
		}
		return
	}
	if ad == nil || b.openScope(cur, ad, fn, recv) || b.flush(cur, ad, fn, recv) {
		return
	}
	if op := ad.op(b.pass, call, fn); op != nil {
		b.add(cur, op, ad, recv)
	} else if _, ok := ad.(redigo); ok {
		b.forwarderOf(cur) // mirror_forward.go
	}
}

// match returns the function call calls, its receiver expression (x in
// x.M(…), or nil) and the adapter that knows the function: a declared
// wrapper's, or the first registered adapter whose family it is. The
// adapter is nil for every other call.
func (b *builder) match(call *ast.CallExpr) (*types.Func, ast.Expr, adapter) {
	// x.M(…) and, for declared wrappers, F(…); also generic
	// instantiations x.M[T](…), F[T](…).
	name, recv := calledName(call)
	if recv == nil && !b.decl.has(name) && !b.importedNames[name] {
		return nil, nil, nil
	}
	if !names[name] && !b.decl.has(name) && !b.importedNames[name] {
		return nil, nil, nil
	}
	fn, ok := typeutil.Callee(b.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil, nil, nil
	}
	if b.decl.lookup(fn) != nil {
		return fn, recv, b.decl
	}
	if b.imported != nil && b.importedNames[name] && fn.Pkg() != b.pass.Pkg {
		if sf := typeutil.StaticCallee(b.pass.TypesInfo, call); sf != nil && b.imported(sf.Origin()) != nil {
			return sf, recv, b.inferred
		}
	}
	for _, a := range adapters {
		if a.family(fn) != "" {
			return fn, recv, a
		}
	}
	if m := b.mirrorOf(fn, recv); m != nil {
		return fn, recv, m // mirror.go
	}
	return nil, nil, nil
}

// calledName is the name call calls by, x.M(…) or F(…) (also generic
// instantiations x.M[T](…), F[T](…)), and for x.M its receiver
// expression x; "" for other calls.
func calledName(call *ast.CallExpr) (name string, recv ast.Expr) {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		return f.Sel.Name, f.X
	case *ast.Ident:
		return f.Name, nil
	}
	return "", nil
}

// openScope records the pipeline or transaction the call at cur opens,
// and reports whether it opens one.
func (b *builder) openScope(cur inspector.Cursor, ad adapter, fn *types.Func, recv ast.Expr) bool {
	kind, watch, fnArg, ok := opensScope(ad, fn)
	if !ok {
		return false
	}
	call := cur.Node().(*ast.CallExpr)
	outer := b.scopeOf(cur, recv)
	sc := Scope{Kind: kind, Node: call, Client: recv, InWatch: watch || outer.InWatch}
	if watch {
		sc.Kind, sc.Node, sc.Client = Direct, nil, nil
	}
	if fnArg >= 0 {
		if fnArg < len(call.Args) {
			if lit, ok := ast.Unparen(call.Args[fnArg]).(*ast.FuncLit); ok {
				if b.closureScopes == nil {
					b.closureScopes = map[*ast.FuncLit]closureScope{}
				}
				b.closureScopes[lit] = closureScope{param: firstParam(b.pass.TypesInfo, lit), scope: sc}
			}
		}
	} else if obj := assignedTo(b.pass.TypesInfo, cur); obj != nil {
		if b.valueScopes == nil {
			b.valueScopes = map[types.Object]Scope{}
		}
		b.valueScopes[obj] = sc
	}
	return true
}

// flush records the call at cur when it sends or drops a batch, and
// reports whether it is a call that can (then it is no op).
func (b *builder) flush(cur inspector.Cursor, ad adapter, fn *types.Func, recv ast.Expr) bool {
	call := cur.Node().(*ast.CallExpr)
	if cf, ok := ad.(connFlusher); ok {
		if sc, ok := cf.connFlush(b.pass, call); ok {
			b.res.Flushes = append(b.res.Flushes, &Flush{Call: call, Cursor: cur, Scope: sc})
			return true
		}
	}
	if fl, ok := ad.(flusher); ok && fl.flushes(fn) {
		if sc := b.scopeOf(cur, recv); sc.Node != nil {
			b.res.Flushes = append(b.res.Flushes, &Flush{Call: call, Cursor: cur, Scope: sc})
		}
		return true
	}
	return false
}

// add completes op, made by ad for the call at cur on recv, and adds it
// to the result and to its enclosing function.
func (b *builder) add(cur inspector.Cursor, op *Op, ad adapter, recv ast.Expr) {
	op.Cursor = cur
	if op.Recv == nil {
		op.Recv = recv
	}
	op.adapter = ad
	op.res = b.res
	op.ttlConst = constval.IntValue(b.pass.TypesInfo, op.TTL)
	if op.Kind == Acquire && op.probe(b.pass.TypesInfo) {
		op.Kind, op.Probe = Write, true
	}
	if op.Scope == (Scope{}) {
		// Adapters whose batches are not opened by a call on a
		// receiver (rueidis' DoMulti) set the scope themselves.
		op.Scope = b.scopeOf(cur, recv)
	}
	encl := innermost(cur, (*ast.FuncDecl)(nil), (*ast.FuncLit)(nil))
	if encl == nil {
		// A call in a package-level initializer (var _ = Unlock("k")) has
		// no function around it: no flow to follow, no caller to pair
		// it with. The checks read only operations inside functions.
		return
	}
	f := b.funcOf(cur, encl)
	f.Ops = append(f.Ops, op)
	op.Func = f
	op.readForms()
	if file, ok := innermost(cur, (*ast.File)(nil)).(*ast.File); ok {
		b.res.Files[file] = true
	}
	b.res.Ops = append(b.res.Ops, op)
	b.res.byPos[cur.Node().(*ast.CallExpr)] = op
}

// funcOf is the Func of the function declaration or literal encl, made on
// first use.
func (b *builder) funcOf(cur inspector.Cursor, encl ast.Node) *Func {
	if f := b.funcs[encl]; f != nil {
		return f
	}
	f := &Func{Node: encl, info: b.pass.TypesInfo, res: b.res, scope: b.scopeFor(cur)}
	switch n := encl.(type) {
	case *ast.FuncDecl:
		f.Body = n.Body
	case *ast.FuncLit:
		f.Body = n.Body
	}
	if b.funcs == nil {
		b.funcs = map[ast.Node]*Func{}
	}
	b.funcs[encl] = f
	b.res.Funcs = append(b.res.Funcs, f)
	return f
}

// scopeFor is the key scope (keyid.Scope) of the outermost function
// around cur, one per function.
func (b *builder) scopeFor(cur inspector.Cursor) *keyid.Scope {
	var top ast.Node
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		top = c.Node()
	}
	if sc := b.keyScopes[top]; sc != nil {
		return sc
	}
	if b.keyScopes == nil {
		b.keyScopes = map[ast.Node]*keyid.Scope{}
	}
	sc := keyid.NewScope(b.pass.TypesInfo, top)
	b.keyScopes[top] = sc
	return sc
}

// scopeOf is the scope of a call on receiver recv at cur.
func (b *builder) scopeOf(cur inspector.Cursor, recv ast.Expr) Scope {
	sc := scopeOf(b.pass.TypesInfo, cur, recv, b.closureScopes, b.valueScopes)
	if sc == (Scope{}) {
		if ps, ok := b.paramScope(cur, recv); ok {
			return ps
		}
	}
	return sc
}

// paramScope is the scope of a call on recv at cur when recv is a
// parameter of a function around cur whose type is a batch by itself (a
// go-redis Pipeliner: batchTyper), never assigned there: the caller's
// batch (Scope.Param), opened by the first call on it in source order.
func (b *builder) paramScope(cur inspector.Cursor, recv ast.Expr) (Scope, bool) {
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok {
		return Scope{}, false
	}
	v, ok := b.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return Scope{}, false
	}
	batch := false
	for _, a := range adapters {
		if bt, ok := a.(batchTyper); ok && bt.batchType(v.Type()) {
			batch = true
		}
	}
	if !batch {
		return Scope{}, false
	}
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var ft *ast.FuncType
		var body *ast.BlockStmt
		switch n := c.Node().(type) {
		case *ast.FuncDecl:
			ft, body = n.Type, n.Body
		case *ast.FuncLit:
			ft, body = n.Type, n.Body
		}
		if ft.Params == nil || v.Pos() < ft.Params.Pos() || v.Pos() >= ft.Params.End() {
			continue
		}
		if astx.AssignedIn(b.pass.TypesInfo, body, v) {
			return Scope{}, false
		}
		sc := Scope{Kind: Pipeline, Node: cur.Node().(*ast.CallExpr), Client: recv, Param: true}
		if b.valueScopes == nil {
			b.valueScopes = map[types.Object]Scope{}
		}
		b.valueScopes[v] = sc
		return sc, true
	}
	return Scope{}, false
}

// resolveScripts fills ScriptSrc for script operations whose source is an
// embedded file (embed.go), and for those that run a script object
// (s.Run(…)) made in this package from a known source: package-level
// `var s = redis.NewScript(src)` or a local `s := …`. The package is
// scanned only when it has such operations.
func resolveScripts(pass *analysis.Pass, in *inspector.Inspector, res *Result) {
	var em *embeds
	var pending []*Op
	for _, op := range res.Ops {
		if op.Kind != Script || op.ScriptSrc != "" {
			continue
		}
		if op.srcArg != nil {
			if def := localConst(pass.TypesInfo, op); def != nil {
				// script := `if redis.call("GET", …`: a local written
				// once with a constant is that constant.
				op.ScriptSrc, op.ScriptSrcExpr = *constval.String(pass.TypesInfo, def), def
				continue
			}
			if em == nil {
				em = embedsOf(pass, res)
			}
			if s := em.source(op.srcArg); s != nil {
				op.ScriptSrc, op.ScriptSrcExpr = *s, op.srcArg
			}
			continue
		}
		pending = append(pending, op)
	}
	if len(pending) == 0 {
		return
	}
	inits := map[types.Object]ast.Expr{}
	record := func(name *ast.Ident, rhs ast.Expr) {
		call, ok := ast.Unparen(rhs).(*ast.CallExpr)
		if !ok {
			return
		}
		fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if !ok || fn.Pkg() == nil {
			return
		}
		for _, a := range adapters {
			sm, ok := a.(scriptMaker)
			if !ok || a.family(fn) == "" {
				continue
			}
			if src, ok := sm.scriptCtor(call, fn); ok {
				if obj := pass.TypesInfo.ObjectOf(name); obj != nil {
					inits[obj] = src
				}
			}
		}
	}
	for n := range in.PreorderSeq((*ast.ValueSpec)(nil), (*ast.AssignStmt)(nil)) {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if i < len(n.Values) && len(n.Names) == len(n.Values) {
					record(name, n.Values[i])
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						record(id, n.Rhs[i])
					}
				}
			}
		}
	}
	for _, op := range pending {
		var obj types.Object
		if id := nameOf(ast.Unparen(op.Script)); id != nil {
			obj = pass.TypesInfo.ObjectOf(id)
		}
		if src, ok := inits[obj]; ok {
			if s := scriptText(pass, res, src); s != nil {
				op.ScriptSrc, op.ScriptSrcExpr = *s, src
			}
		}
	}
}

// localConst is the string constant that defines the local variable
// op's script source names, when the variable is written nowhere else in
// its function (script := "…" in the function that runs it); otherwise
// nil.
func localConst(info *types.Info, op *Op) ast.Expr {
	id, ok := ast.Unparen(op.srcArg).(*ast.Ident)
	if !ok || op.Func == nil {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	def, _ := op.Func.Scope().Vars().SoleDef(v)
	if def == nil || constval.String(info, def) == nil {
		return nil
	}
	return def
}

// innermost returns the nearest enclosing node (or cur's own node) of one
// of the given types, or nil.
func innermost(cur inspector.Cursor, types ...ast.Node) ast.Node {
	for c := range cur.Enclosing(types...) {
		return c.Node()
	}
	return nil
}

type closureScope struct {
	param types.Object
	scope Scope
}

// scopeOf finds the scope of a call on receiver recv at cur.
func scopeOf(info *types.Info, cur inspector.Cursor, recv ast.Expr, closures map[*ast.FuncLit]closureScope, values map[types.Object]Scope) Scope {
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok {
		return Scope{}
	}
	obj := info.ObjectOf(id)
	if obj == nil {
		return Scope{}
	}
	if sc, ok := values[obj]; ok {
		return sc
	}
	for c := range cur.Enclosing((*ast.FuncLit)(nil)) {
		if cs, ok := closures[c.Node().(*ast.FuncLit)]; ok && cs.param == obj {
			return cs.scope
		}
	}
	return Scope{}
}

func firstParam(info *types.Info, lit *ast.FuncLit) types.Object {
	if lit.Type.Params == nil || len(lit.Type.Params.List) == 0 || len(lit.Type.Params.List[0].Names) == 0 {
		return nil
	}
	return info.ObjectOf(lit.Type.Params.List[0].Names[0])
}

// assignedTo returns the variable a call's single result is assigned to
// (x := call(), x = call(), var x = call()), or nil.
func assignedTo(info *types.Info, cur inspector.Cursor) types.Object {
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 1 && len(p.Rhs) == 1 {
			if id, ok := p.Lhs[0].(*ast.Ident); ok {
				return info.ObjectOf(id)
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) == 1 && len(p.Values) == 1 {
			return info.ObjectOf(p.Names[0])
		}
	}
	return nil
}

// WithTTL returns edits that make the acquire o set the TTL given by the
// expression ttl, taken from op from (an Expire). It fails when the TTL
// units differ in a way the client cannot express, or when o's TTL cannot
// be edited in place (for example SetArgs passed as a variable).
func (o *Op) WithTTL(pass *analysis.Pass, from *Op, ttl string) ([]analysis.TextEdit, bool) {
	if ts, ok := o.adapter.(ttlSetter); ok {
		return ts.withTTL(pass, o, ttl, from.TTLUnit)
	}
	return nil, false
}

// WithTTLWhy says in a few words why WithTTL has no rewrite of o, when
// its adapter can tell; "" otherwise.
func (o *Op) WithTTLWhy(pass *analysis.Pass, from *Op, ttl string) string {
	if w, ok := o.adapter.(interface {
		withTTLWhy(pass *analysis.Pass, o *Op, ttl string, unit Unit) ([]analysis.TextEdit, string)
	}); ok {
		_, why := w.withTTLWhy(pass, o, ttl, from.TTLUnit)
		return why
	}
	return ""
}

// opensScope asks ad's scopeOpener, if it has one, about fn.
func opensScope(ad adapter, fn *types.Func) (ScopeKind, bool, int, bool) {
	if so, ok := ad.(scopeOpener); ok {
		return so.opensScope(fn)
	}
	return 0, false, 0, false
}

// Shared is Result.Shared for values that belong to the function: built
// once, shared by every check.
func (f *Func) Shared(key any, build func() any) any {
	return f.res.Shared(funcKey{f, key}, build)
}

type funcKey struct {
	f   *Func
	key any
}

// cfgBuilds counts control-flow graphs built, for tests that assert the
// cheap path (no CFG in packages without lock operations).
var cfgBuilds atomic.Int64

// CFGBuilds reports how many control-flow graphs redisops has built in this
// process.
func CFGBuilds() int64 { return cfgBuilds.Load() }

// CFG returns the function's control-flow graph, built on first use.
func (f *Func) CFG() *cfg.CFG {
	f.cfgOnce.Do(func() {
		cfgBuilds.Add(1)
		f.cfg = cfg.New(f.Body, func(call *ast.CallExpr) bool { return mayReturn(f.info, call) })
	})
	return f.cfg
}

// RespellTTL is the edit of op's TTLWord that makes it take a count in
// unit (Seconds or Millis) with the TTL argument unchanged: "EX" and "PX"
// swap in their case, ExSeconds and PxMilliseconds swap. ok is false when
// op has no such word.
func (op *Op) RespellTTL(unit Unit) (edit analysis.TextEdit, word string, ok bool) {
	to := map[Unit][2]string{Seconds: {"EX", "ExSeconds"}, Millis: {"PX", "PxMilliseconds"}}[unit]
	if to[0] == "" {
		return analysis.TextEdit{}, "", false
	}
	switch w := op.TTLWord.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(w.Value)
		if err != nil || w.Kind != token.STRING || !strings.EqualFold(s, "EX") && !strings.EqualFold(s, "PX") {
			return analysis.TextEdit{}, "", false
		}
		word = to[0]
		if s == strings.ToLower(s) {
			word = strings.ToLower(word)
		}
		return analysis.TextEdit{Pos: w.Pos(), End: w.End(), NewText: []byte(strconv.Quote(word))}, word, true
	case *ast.Ident:
		if w.Name != "ExSeconds" && w.Name != "PxMilliseconds" {
			return analysis.TextEdit{}, "", false
		}
		return analysis.TextEdit{Pos: w.Pos(), End: w.End(), NewText: []byte(to[1])}, to[1], true
	}
	return analysis.TextEdit{}, "", false
}

// NeverReturns reports whether call never returns: panic, os.Exit,
// log.Fatal*, log.Panic*, runtime.Goexit.
func NeverReturns(info *types.Info, call *ast.CallExpr) bool { return !mayReturn(info, call) }

// Decl is the declaration of fn among the package's files, or nil (fn
// of another package, or a function without a body in source). The
// index is built on first use and shared by the checks.
func (r *Result) Decl(info *types.Info, fn *types.Func) *ast.FuncDecl {
	type declsKey struct{}
	decls := r.Shared(declsKey{}, func() any {
		m := map[*types.Func]*ast.FuncDecl{}
		for n := range r.Inspector.PreorderSeq((*ast.FuncDecl)(nil)) {
			d := n.(*ast.FuncDecl)
			if obj, ok := info.Defs[d.Name].(*types.Func); ok {
				m[obj] = d
			}
		}
		return m
	}).(map[*types.Func]*ast.FuncDecl)
	return decls[fn]
}

// mayReturn is false for calls that never return: panic, os.Exit,
// log.Fatal*, log.Panic*, runtime.Goexit.
func mayReturn(info *types.Info, call *ast.CallExpr) bool {
	switch fn := typeutil.Callee(info, call).(type) {
	case *types.Builtin:
		return fn.Name() != "panic"
	case *types.Func:
		if fn.Pkg() == nil {
			return true
		}
		switch fn.Pkg().Path() + "." + fn.Name() {
		case "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "log.Panic", "log.Panicf", "log.Panicln", "runtime.Goexit":
			return false
		}
	}
	return true
}

// Reachable reports whether, in f, control can flow from the point after
// the node at from to the node at to (both positions inside f's body and
// outside nested function literals). The search skips the blocks from which
// to's block cannot be reached (MayReach), so it costs the part of the
// function between the two, not the whole function.
func (f *Func) Reachable(from, to token.Pos) bool { return f.reachable(from, to, true) }

// reachable is Reachable, with the index (indexed) or by scanning the whole
// graph (for tests that compare the two).
func (f *Func) reachable(from, to token.Pos, indexed bool) bool {
	find := f.Locate
	if !indexed {
		find = func(pos token.Pos) (*cfg.Block, int) { return locate(f.CFG(), pos) }
	}
	bf, nf := find(from)
	bt, nt := find(to)
	if bf == nil || bt == nil {
		return false
	}
	if bf == bt && (nf < nt || nf == nt && from < to) {
		return true
	}
	target := bt.Nodes[nt].Pos()
	seen := map[*cfg.Block]bool{}
	stack := append([]*cfg.Block(nil), bf.Succs...)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == bt {
			return true
		}
		if seen[b] || indexed && !f.MayReach(b, target) {
			continue
		}
		seen[b] = true
		stack = append(stack, b.Succs...)
	}
	return false
}
