package redisops

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockname"
)

// Inferred wrappers. A function of the analysed code whose body takes,
// releases or renews a lock on a key built from one of its parameters is
// summarized: the summary says what a declaration (-acquire-funcs, …)
// would say about it, and a call of the function then becomes the op
// the summary stands for, made by the same code that turns a call of a
// declared wrapper into an op (wrappers.go). So an inferred wrapper
// behaves exactly like a declared one in every check; where a function
// is both declared and inferred, the declaration wins (a test shows the
// two agree).
//
// THE SEAM between summaries (this file) and their transport across
// packages (analysis facts, owned elsewhere):
//
//   - Summary holds only exported, plain fields (strings, ints, bools):
//     it can be encoded as is (gob, JSON) in a fact.
//   - Result.Summaries lists the summaries of the package's own
//     functions, by function: the facts to export.
//   - NewImporting(cfg, imported, names) is the one hook for summaries
//     of imported functions: imported(pass, fn) looks up fn's summary
//     (from facts), names(pass) gives the short names of the functions
//     that have one (the call walk's cheap prefilter). It sets
//     builder.imported and builder.importedNames before the call walk;
//     a call of an imported function with a summary becomes an op like
//     a call of a local one (TestImportedSummaries in unsafeunlock
//     feeds it by hand). A summary made from a fact has local false.
//
// Which calls report where (no double reports):
//
//   - An acquire helper's call site is an Acquire op: LV105 (the outcome
//     read there), LV104 (a TTL argument), LV204 (a constant passed as
//     the value), LV101/LV102 (a TTL set by a second call) report there.
//     LV103 (no TTL) reports at the SET NX inside the helper when the
//     helper is in this package.
//   - A release or renew helper's call site is a Delete / Expire /
//     owner-checked Script op. When the helper's Redis call is in this
//     package, or when its own package pairs it with an acquire
//     (Summary.Paired), the finding about that call (LV201, LV202,
//     LV203) is reported at the call inside the helper, where the fix
//     is: the call site is evidence only (Op.InHelper). Otherwise (a
//     helper in another package that its package cannot pair) the call
//     site is reported, naming the helper and where its Redis call is.
//
// A helper handed its caller's batch (a go-redis Pipeliner, a redigo
// connection it only Sends on: Scope.Param) is summarized as queued
// (Summary.Queued): a call of it queues the operation in the batch its
// argument is at the call, so that SETNX in one helper and EXPIRE in
// another, called in one transaction, are LV102's pair there.
//
// What is not inferred: functions reached through an interface or a
// function value (only static calls become ops: declare those), helpers
// whose key is not built from exactly one parameter (keyid.Template),
// functions with more than one lock operation of a kind, operations
// queued in a pipeline or transaction the function opens or sends
// itself, and functions in _test.go files.

// Form is how a release or renew helper treats the owner.
type Form uint8

const (
	// Bare: DEL / EXPIRE with no owner check.
	Bare Form = iota + 1
	// CheckThenDel: GET, compare, DEL in separate round trips.
	CheckThenDel
	// OwnerChecked: a compare-and-delete (or compare-and-expire) in one
	// step: a script or DELEX IFEQ.
	OwnerChecked
)

// Summary is what a function does to a lock with its parameters, read
// from its body (or, at Depth > 0, from the summarized function it
// calls). It has the declaration's vocabulary (lvconfig.Wrapper) plus
// what a declaration cannot say: where the Redis call is and how the
// helper builds its key.
type Summary struct {
	// Func is the function's qualified name as declarations write it:
	// pkg/path.F, or (pkg/path.T).M (no '*', no type parameters).
	Func string
	// Name is the function's own name (F, M), for messages.
	Name string
	// Kind is the lock operation: AcquireFunc, ExpireFunc (a renewal),
	// ReleaseFunc (a bare DEL, or GET-compare-DEL: see Form) or
	// SafeReleaseFunc (owner-checked).
	Kind lvconfig.WrapperKind
	// Form is, for releases and renewals, how the owner is checked.
	Form Form
	// Key is the index of the parameter the key is built from (the
	// receiver not counted), and KeyForm how (keyid.Template's form:
	// written `$` for the parameter itself, `("lock:"+$)` for a prefix).
	// A call of the function names the key keyid.Bind(KeyForm, its
	// argument, its receiver).
	Key     int
	KeyForm keyid.Form
	// Value is the index of the parameter that carries the value
	// written (acquire) or the token compared (safe release), or -1.
	// ValueConst is the value's Go source when it is a constant ("1").
	Value      int
	ValueConst string
	// TTL is the index of the parameter that carries the TTL, or -1;
	// Unit is what it counts. NoTTL: the acquire sets no TTL.
	// TTLConst is the TTL's source when the helper fixes it.
	TTL      int
	Unit     Unit
	NoTTL    bool
	TTLConst string
	// Returns: the acquire's outcome is the function's result (its
	// results then read as a declared acquire's do: (bool), (bool,
	// error), or a last error).
	Returns bool
	// Busy: the helper returns its acquire's (reply, error) as they are
	// (return conn.Do("SET", key, v, "NX", "EX", n)), and the reply says
	// busy as this (BusyNil, BusyZero); 0 otherwise. Its callers then
	// read the results as that reply.
	Busy Busy
	// Lock: the helper takes a lock by its own evidence (named like a
	// lock, or paired with a release or renewal in its package), so a
	// misread outcome at a call site needs no other evidence.
	Lock bool
	// Paired: the helper's own package has the evidence to report the
	// findings about its Redis call there: a release or renewal paired
	// with an acquire helper, or an acquire named like a lock or paired
	// (its missing TTL, LV103, is reported at its SET NX).
	Paired bool
	// Where is the Redis call the summary rests on, "dir/file.go:line"
	// (the file's directory and name), and Method that call's method
	// or command (SetNX, Del, EXPIRE).
	Where  string
	Method string
	// Queued: the helper queues its operation on a batch its caller
	// hands it (Scope.Param), the parameter at index Batch (the
	// receiver not counted), rather than sending it.
	Queued bool
	Batch  int
	// Via is, at Depth > 0, the summarized function the helper calls
	// (its Name); Depth is how many helpers lie between a call of this
	// function and the Redis call.
	Via   string
	Depth int
	// Scoped: the helper also releases the lock it takes, before it
	// returns (WithLock(ctx, key, ttl, fn)): a lock by its own evidence,
	// whose findings are reported in it. At a call site what the caller
	// gives it is checked (a TTL in the wrong unit, LV104); its result is
	// not the acquire's outcome (Returns is false), and the caller holds
	// nothing after the call (no release of its own to pair).
	Scoped bool
	// Forward is set on a forwarder of redigo's generic call
	// (mirror_forward.go), to "Do" or "Send": the function hands its
	// string parameter at index Cmd (the receiver not counted) and its
	// variadic parameter, as they are, to that call; Sent when it also
	// sends what Send queued. A call of it with a constant command name
	// is that command. Such a summary has no Kind: a forwarder is no
	// lock helper by itself. It is never in Result.Summaries.
	Forward string
	Cmd     int
	Sent    bool

	local bool // the function is in the package being analysed
}

// releases reports whether op deletes a lock: a DEL, a compare-and-delete
// command, or a compare-and-delete script.
func releases(op *Op) bool {
	switch op.Kind {
	case Delete, CompareDelete:
		return true
	case Script:
		return op.ScriptSrc != "" && lua.Classify(op.ScriptSrc).Kind == lua.CompareAndDelete
	}
	return false
}

// MaxDepth bounds how many helpers may lie between a call and the Redis
// call it stands for.
const MaxDepth = 3

// Wrapper is the declaration that says what s says.
func (s *Summary) Wrapper() lvconfig.Wrapper {
	w := lvconfig.Wrapper{Kind: s.Kind, Func: s.Func, NoTTL: s.NoTTL, Spec: "inferred " + s.Func}
	param := func(i int) *lvconfig.Param {
		if i < 0 {
			return nil
		}
		return &lvconfig.Param{Index: i}
	}
	w.Key, w.Value, w.TTL = param(s.Key), param(s.Value), param(s.TTL)
	if w.TTL != nil {
		switch s.Unit {
		case Duration:
			w.Unit = lvconfig.UnitDuration
		case Seconds:
			w.Unit = lvconfig.UnitSeconds
		case Millis:
			w.Unit = lvconfig.UnitMillis
		}
	}
	return w
}

// Describe is the helper and its Redis call for messages:
// "Unlock (a bare DEL at cache/lock.go:13)".
func (s *Summary) Describe() string {
	return s.Name + " (" + s.Method + " at " + s.Where + ")"
}

// InHelper reports whether o stands for a call of a summarized helper
// whose own Redis call is reported where it is (in this package, or
// paired in its own): findings about the release or renewal belong
// there, and o is evidence only.
func (o *Op) InHelper() bool {
	return o.Via != nil && (o.Via.local || o.Via.Paired)
}

// summarizer builds a package's summaries and turns the calls of
// summarized functions into ops.
type summarizer struct {
	b     *builder
	sums  map[*types.Func]*Summary           // this package's, by function
	calls map[*types.Func][]inspector.Cursor // static calls of the package's functions
	work  int64                              // counted work, for the linearity test
}

// summarize computes the package's summaries and adds the ops of calls
// of summarized functions. It runs only in packages that have ops.
func (b *builder) summarize() {
	if len(b.res.Ops) == 0 {
		return
	}
	s := &summarizer{b: b, sums: map[*types.Func]*Summary{}}
	var todo []*types.Func
	for _, f := range b.res.Funcs {
		if fn, sum := s.ofFunc(f, 0); sum != nil {
			s.sums[fn] = sum
			todo = append(todo, fn)
		}
	}
	if len(todo) == 0 {
		return
	}
	s.pair()
	s.indexCalls()
	for depth := 1; len(todo) > 0; depth++ {
		touched := map[*Func]bool{}
		for _, fn := range todo {
			for _, cur := range s.calls[fn] {
				if f := s.callOp(cur, fn); f != nil {
					touched[f] = true
				}
			}
		}
		todo = nil
		if depth > MaxDepth {
			break
		}
		for f := range touched {
			if fn, sum := s.ofFunc(f, depth); sum != nil {
				s.sums[fn] = sum
				todo = append(todo, fn)
			}
		}
	}
	b.res.sortOps(b.pass.Files)
	b.res.Summaries = s.sums
	summaryWork.Add(s.work)
}

// summaryWork counts the summarizers' steps in this process.
var summaryWork atomic.Int64

// SummaryWork reports how many steps (functions read, calls turned into
// ops) summarizing has taken in this process, for a work-count test.
func SummaryWork() int64 { return summaryWork.Load() }

// ofFunc summarizes f when it is a function declaration with exactly one
// lock operation on a key built from a parameter.
func (s *summarizer) ofFunc(f *Func, depth int) (*types.Func, *Summary) {
	s.work++
	decl, ok := f.Node.(*ast.FuncDecl)
	if !ok || decl.Body == nil {
		return nil, nil
	}
	pass := s.b.pass
	fn, ok := pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if !ok || s.sums[fn] != nil || astx.InTest(pass.Fset, decl.Pos()) {
		return nil, nil
	}
	var main, release *Op
	var gets, expires, direct int
	var batch *Scope // the caller's batch the ops are queued on
	for _, op := range f.Ops {
		switch {
		case op.Scope.Param:
			if batch != nil && batch.Node != op.Scope.Node {
				return nil, nil
			}
			batch = &op.Scope
		case op.Scope.Kind != Direct:
			return nil, nil
		default:
			direct++
		}
		switch op.Kind {
		case Get:
			gets++
			continue
		case Expire:
			expires++
		case LockTTL:
			continue
		case Counter:
			return nil, nil // a counter's helper is not a lock's
		}
		if main != nil && main.Kind == Acquire && main.Via == nil && release == nil && releases(op) {
			// WithLock(ctx, key, ttl, fn): the helper releases what it
			// takes (scoped, below).
			release = op
			continue
		}
		if main != nil && !(main.Kind == Acquire && op.Kind == Expire) {
			return nil, nil // more than one lock operation
		}
		if main == nil {
			main = op
		}
	}
	if main == nil || main.Via == nil && depth > 0 || main.Via != nil && main.Via.Depth+1 != depth {
		return nil, nil
	}
	if release != nil && (main.NoTTL || expires > 0 || gets > 0 || batch != nil ||
		!keyid.Same(main.KeyForm(), release.KeyForm())) {
		return nil, nil
	}
	key, ok := f.Scope().Template(main.KeyForm())
	if !ok {
		return nil, nil
	}
	sum := &Summary{
		Func: fullName(fn), Name: fn.Name(), Key: key.Index, KeyForm: key.Form,
		Value: -1, TTL: -1, Depth: depth, local: true, Method: main.Method,
		Where: where(pass.Fset, main.Call.Pos()), Batch: -1, Scoped: release != nil,
	}
	if batch != nil {
		if direct > 0 || gets > 0 {
			return nil, nil // a GET queued with the release compares nothing
		}
		if sum.Batch = s.batchParam(fn, decl, batch); sum.Batch < 0 {
			return nil, nil
		}
		sum.Queued = true
	}
	if v := main.Via; v != nil {
		// The key's form is the called helper's template bound to this
		// function's argument and receiver (Op.KeyForm), so key is
		// already this function's template of it.
		sum.Method, sum.Where, sum.Via = v.Method, v.Where, v.Name
	}
	if !s.kindOf(sum, main, gets, expires) {
		return nil, nil
	}
	s.operands(sum, fn, decl, main)
	if sum.Scoped && sum.TTL < 0 {
		return nil, nil // nothing for a call site to give it
	}
	return fn, sum
}

// batchParam is the index of fn's parameter that is the batch sc, which
// must not be sent or dropped in fn (a flush of it there), or -1.
func (s *summarizer) batchParam(fn *types.Func, decl *ast.FuncDecl, sc *Scope) int {
	for _, fl := range s.b.res.Flushes {
		if fl.Scope.Node == sc.Node {
			return -1
		}
	}
	id, ok := ast.Unparen(sc.Client).(*ast.Ident)
	if !ok {
		return -1
	}
	v, ok := s.b.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || astx.AssignedIn(s.b.pass.TypesInfo, decl.Body, v) {
		return -1
	}
	ps := fn.Signature().Params()
	for i := range ps.Len() {
		if ps.At(i) == v {
			return i
		}
	}
	return -1
}

// kindOf sets sum's kind and form from the function's main op.
func (s *summarizer) kindOf(sum *Summary, main *Op, gets, expires int) bool {
	if v := main.Via; v != nil {
		if gets > 0 || expires > 0 {
			return false
		}
		sum.Kind, sum.Form, sum.NoTTL = v.Kind, v.Form, v.NoTTL
		return true
	}
	switch main.Kind {
	case Acquire:
		if gets > 0 || expires > 1 {
			return false
		}
		sum.Kind, sum.NoTTL = lvconfig.AcquireFunc, main.NoTTL && expires == 0
	case Delete:
		if expires > 0 || gets > 1 || len(main.Keys) != 1 {
			return false
		}
		sum.Kind, sum.Form = lvconfig.ReleaseFunc, Bare
		if gets == 1 {
			sum.Form = CheckThenDel
		}
	case Expire:
		if gets > 0 || main.DeletesKey() {
			return false
		}
		sum.Kind, sum.Form = lvconfig.ExpireFunc, Bare
	case CompareDelete:
		sum.Kind, sum.Form = lvconfig.SafeReleaseFunc, OwnerChecked
	case Script:
		if gets > 0 || expires > 0 || main.ScriptSrc == "" || lua.Classify(main.ScriptSrc).Kind != lua.CompareAndDelete {
			return false
		}
		sum.Kind, sum.Form = lvconfig.SafeReleaseFunc, OwnerChecked
	default:
		return false
	}
	return true
}

// operands fills in where sum's value and TTL come from, and whether the
// acquire's outcome is the function's result.
func (s *summarizer) operands(sum *Summary, fn *types.Func, decl *ast.FuncDecl, main *Op) {
	pass := s.b.pass
	info := pass.TypesInfo
	param := func(e ast.Expr) int { return paramIndex(info, fn, decl, e) }
	text := func(e ast.Expr) string {
		if e == nil || constval.IntValue(info, e) == nil && info.Types[e].Value == nil {
			return ""
		}
		return types.ExprString(e)
	}
	value := main.Value
	if main.Kind == Script || main.Kind == CompareDelete {
		value = main.Value
		if main.Kind == Script {
			value = nil
			if tok := lua.Classify(main.ScriptSrc).TokenArg; tok > 0 && tok <= len(main.Args) {
				value = main.Args[tok-1]
			}
		}
	}
	if main.Via != nil && main.Via.ValueConst != "" {
		sum.ValueConst = main.Via.ValueConst
	} else {
		sum.Value, sum.ValueConst = param(value), text(value)
	}
	if sum.Kind == lvconfig.AcquireFunc || sum.Kind == lvconfig.ExpireFunc {
		ttl, unit := main.TTL, main.TTLUnit
		if main.Kind == Acquire && main.NoTTL && !sum.NoTTL {
			// The TTL is set by an EXPIRE after the SET NX in the helper,
			// in the EXPIRE's unit.
			for _, op := range main.Func.Ops {
				if op.Kind == Expire {
					ttl, unit = op.TTL, op.TTLUnit
				}
			}
		}
		if sum.TTL = param(ttl); sum.TTL >= 0 {
			sum.Unit = unit
			if main.Via != nil {
				sum.Unit = main.Via.Unit
			}
		}
		if !sum.NoTTL {
			sum.TTLConst = text(ttl)
		}
		if main.Via != nil && sum.TTL < 0 && sum.TTLConst == "" {
			sum.TTLConst = main.Via.TTLConst
		}
	}
	if sum.Kind == lvconfig.AcquireFunc {
		// A queued acquire's reply is read after the batch is sent.
		// An INCR lock's answer may say busy (IsLocked) as well as
		// acquired: its callers' reads are not followed.
		sum.Returns = !sum.Queued && !sum.Scoped && !main.counts() && returnsOutcome(info, decl, main)
		if sum.Returns && main.Via == nil {
			sum.Busy = passedBusy(info, fn, decl, main)
		}
		sum.Lock = lockname.LockLike(fn.Name(), true) || main.Via != nil && main.Via.Lock || sum.Scoped
		if r := RecvType(fn); r != nil && lockname.LockLike(r.Name(), true) {
			sum.Lock = true
		}
		sum.Paired = sum.Lock
	}
}

// paramIndex is the index of fn's parameter that e is (not its variadic
// one), when decl, fn's declaration, never assigns it; otherwise -1.
func paramIndex(info *types.Info, fn *types.Func, decl *ast.FuncDecl, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if e == nil || !ok {
		return -1
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || astx.AssignedIn(info, decl.Body, v) {
		return -1
	}
	ps := fn.Signature().Params()
	for i := range ps.Len() {
		if ps.At(i) == v && !(fn.Signature().Variadic() && i == ps.Len()-1) {
			return i
		}
	}
	return -1
}

// returnsOutcome reports whether the acquire a's reply reaches decl's
// results: the call (or an accessor on it) is returned, or a variable it
// is read into is mentioned in a return statement.
func returnsOutcome(info *types.Info, decl *ast.FuncDecl, a *Op) bool {
	for p := a.Cursor.Parent(); ; p = p.Parent() {
		switch p.Node().(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.CallExpr, *ast.SelectorExpr, *ast.ParenExpr, *ast.UnaryExpr, *ast.BinaryExpr:
			continue
		}
		break
	}
	vars := map[types.Object]bool{}
	if out, ok := a.Outcome(info); ok {
		for _, e := range []ast.Expr{out.Value, out.Err} {
			if id := astx.IdentOf(e); id != nil && info.ObjectOf(id) != nil {
				vars[info.ObjectOf(id)] = true
			}
		}
	}
	if len(vars) == 0 {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok {
			for _, e := range r.Results {
				ast.Inspect(e, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && vars[info.ObjectOf(id)] {
						found = true
					}
					return !found
				})
			}
		}
		return true
	})
	return found
}

// passedBusy is how the acquire a's reply says busy when fn's results
// are (T, error) and the acquire's call is returned as they are (return
// conn.Do("SET", …)); 0 otherwise, and when the reply's busy is a bool
// (read as declared) or an error value (the client's nil-reply
// sentinel, which a call site's check cannot name for a helper). Other
// return statements of fn are not read: one that returns a non-nil
// reply without acquiring would be misread as acquired.
func passedBusy(info *types.Info, fn *types.Func, decl *ast.FuncDecl, a *Op) Busy {
	out, ok := a.Outcome(info)
	if !ok || out.Busy != BusyNil && out.Busy != BusyZero {
		return 0
	}
	rs := fn.Signature().Results()
	if rs.Len() != 2 || !types.Identical(rs.At(1).Type(), types.Universe.Lookup("error").Type()) {
		return 0
	}
	r, ok := a.Cursor.Parent().Node().(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 || ast.Unparen(r.Results[0]) != a.Call {
		return 0
	}
	return out.Busy
}

// pair marks the release and renew summaries that the package pairs with
// an acquire summary by their names (lockname.Counterparts: Lock/Unlock,
// …, on one receiver type or both package-level) and key template, and
// the acquires so paired as locks.
func (s *summarizer) pair() {
	type group struct {
		recv types.Object
		rest string
	}
	acquires := map[group][]*types.Func{}
	for fn, sum := range s.sums {
		if sum.Kind == lvconfig.AcquireFunc {
			_, rest := lockname.Split(fn.Name())
			g := group{RecvType(fn), rest}
			acquires[g] = append(acquires[g], fn)
		}
	}
	for fn, sum := range s.sums {
		if sum.Kind == lvconfig.AcquireFunc {
			continue
		}
		role, rest := lockname.Split(fn.Name())
		if role == lockname.NoRole {
			continue
		}
		for _, afn := range acquires[group{RecvType(fn), rest}] {
			a := s.sums[afn]
			if lockname.Counterparts(afn.Name(), fn.Name()) && keyid.SameTemplate(a.KeyForm, sum.KeyForm) && a.Key == sum.Key {
				sum.Paired, a.Lock, a.Paired = true, true, true
			}
		}
	}
}

// RecvType is the named type of fn's receiver (its origin), or nil.
func RecvType(fn *types.Func) types.Object {
	r := fn.Signature().Recv()
	if r == nil {
		return nil
	}
	t := types.Unalias(r.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// indexCalls finds the package's static calls of its own functions that
// are not ops already (one walk).
func (s *summarizer) indexCalls() {
	s.calls = map[*types.Func][]inspector.Cursor{}
	info := s.b.pass.TypesInfo
	for cur := range s.b.res.Inspector.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if s.b.res.byPos[call] != nil {
			continue
		}
		fn := typeutil.StaticCallee(info, call)
		if fn == nil || fn.Pkg() != s.b.pass.Pkg {
			continue
		}
		s.calls[fn.Origin()] = append(s.calls[fn.Origin()], cur)
	}
}

// callOp turns the call at cur of the summarized fn into the op its
// summary stands for, and returns the function that now holds it.
func (s *summarizer) callOp(cur inspector.Cursor, fn *types.Func) *Func {
	s.work++
	call := cur.Node().(*ast.CallExpr)
	sum := s.sums[fn]
	if s.b.res.byPos[call] != nil || sum == nil {
		return nil
	}
	callee := typeutil.StaticCallee(s.b.pass.TypesInfo, call)
	if callee == nil {
		return nil
	}
	op := s.b.inferred.opFor(s.b.pass, call, callee, sum)
	if op == nil {
		return nil
	}
	op.Scope = s.b.queuedScope(cur, call, sum)
	var recv ast.Expr
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		recv = sel.X
	}
	s.b.add(cur, op, s.b.inferred, recv)
	return op.Func
}

// queuedScope is, for a call at cur of a helper summarized by sum, the
// scope its operation runs in when the helper queues it on a batch its
// caller hands it (Summary.Queued): the batch the argument is at the call
// (a TxPipelined callback's pipeline, a pipeline value, a redigo
// connection inside MULTI, or the caller's own parameter, Scope.Param).
// A batch the call does not show is a pipeline with no Node: queued, so
// no check reads the op as sent, and paired with nothing. The zero Scope
// when the helper sends its operation itself.
func (b *builder) queuedScope(cur inspector.Cursor, call *ast.CallExpr, sum *Summary) Scope {
	if !sum.Queued {
		return Scope{}
	}
	args := call.Args
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := b.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodExpr && len(args) > 0 {
			args = args[1:]
		}
	}
	unknown := Scope{Kind: Pipeline}
	if sum.Batch < 0 || sum.Batch >= len(args) || call.Ellipsis.IsValid() {
		return unknown
	}
	arg := args[sum.Batch]
	if sc := b.scopeOf(cur, arg); sc.Node != nil {
		return sc
	}
	for _, a := range adapters {
		if ca, ok := a.(connArger); ok {
			if sc, ok := ca.argScope(b.pass, call, arg); ok {
				return sc
			}
		}
	}
	return unknown
}

// where is "dir/file.go:line" for pos.
func where(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return filepath.Base(filepath.Dir(p.Filename)) + "/" + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// inferred is the adapter for calls of summarized functions: a call
// becomes an op exactly as a call of the declaration Summary.Wrapper
// would (wrappers.go), and is marked with the summary (Op.Via).
type inferred struct {
	decl *declared
}

var (
	_ adapter  = (*inferred)(nil)
	_ outcomer = (*inferred)(nil)
	_ adviser  = (*inferred)(nil)
)

// advice: the TTL of a helper's acquire is set inside the helper.
func (in *inferred) advice(o *Op, a Advice) string {
	if a != AdviseTTL || o.Via == nil || o.Via.Kind != lvconfig.AcquireFunc {
		return ""
	}
	return "set the TTL in the " + o.Via.Method + " inside " + o.Via.Name
}

func newInferred() *inferred {
	return &inferred{decl: &declared{byName: map[string]*lvconfig.Wrapper{}, names: map[string]bool{}}}
}

func (in *inferred) family(fn *types.Func) string {
	if in.decl.lookup(fn) != nil {
		return "inferred"
	}
	return ""
}

// op: ops of calls are made by opFor, which knows the summary.
func (in *inferred) op(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func) *Op { return nil }

// opFor makes the op of a call of fn, summarized by sum.
func (in *inferred) opFor(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func, sum *Summary) *Op {
	name := sum.Func
	if in.decl.byName[name] == nil {
		w := sum.Wrapper()
		in.decl.byName[w.MatchName()] = &w
		in.decl.names[w.ShortName()] = true
	}
	op := in.decl.op(pass, call, fn)
	if op == nil {
		return nil
	}
	op.Client, op.Via = "inferred", sum
	return op
}

// outcome: as a declared acquire's, when the helper returns the
// outcome; a helper that names or pairs itself as a lock is one by
// definition.
func (in *inferred) outcome(info *types.Info, o *Op) (Outcome, bool) {
	if o.Via == nil || !o.Via.Returns {
		return Outcome{}, false
	}
	if b := o.Via.Busy; b != 0 {
		// The acquire's own reply and error, passed through.
		out := callOutcome(info, o, b, 0, 1, 2)
		out.IsLock = o.Via.Lock
		return out, true
	}
	out, ok := in.decl.outcome(info, o)
	out.IsLock = ok && o.Via.Lock
	return out, ok
}

// sortOps puts the result's ops, functions and each function's ops back
// in source order after ops were added out of order: the order of the
// package's files (files), then position in the file. Positions alone do
// not order files the same way from run to run: go/packages parses a
// package's files in parallel, so which file has the lower base varies,
// and with it every answer that takes the first of several ops.
func (r *Result) sortOps(files []*ast.File) {
	type span struct {
		start token.Pos
		rank  int
	}
	spans := make([]span, len(files))
	for i, f := range files {
		spans[i] = span{f.FileStart, i}
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	rank := func(p token.Pos) int {
		i, found := slices.BinarySearchFunc(spans, p, func(s span, p token.Pos) int { return cmp.Compare(s.start, p) })
		switch {
		case found:
			return spans[i].rank
		case i == 0:
			return -1
		}
		return spans[i-1].rank
	}
	order := func(p, q token.Pos) int { return cmp.Or(cmp.Compare(rank(p), rank(q)), cmp.Compare(p, q)) }
	byPos := func(a, b *Op) int { return order(a.Call.Pos(), b.Call.Pos()) }
	slices.SortStableFunc(r.Ops, byPos)
	for _, f := range r.Funcs {
		slices.SortStableFunc(f.Ops, byPos)
	}
	slices.SortStableFunc(r.Funcs, func(a, b *Func) int { return order(a.Node.Pos(), b.Node.Pos()) })
}
