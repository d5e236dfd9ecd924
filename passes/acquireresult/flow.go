package acquireresult

import (
	"go/ast"
	"slices"

	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// outcomes is a set of acquire outcomes.
type outcomes uint8

const (
	acquired outcomes = 1 << iota
	busy
	failed
	all = acquired | busy | failed
)

// A flow state is a set of (outcome, liveness) pairs: liveness says
// whether the variables that carry the value and the error still hold the
// acquire's reply on that path (an assignment later in the function makes
// them dead, and tests of them then say nothing about the acquire), and
// whether the path went through a branch on something other than the
// reply (other): a bool returned there may be that something's answer
// (a cache read's "found"), not the acquire's.
type state uint32

const (
	errDead = 1 << iota
	valDead
	other
)

func bit(o outcomes, dead int) state {
	i := 0
	for o != 1 {
		o >>= 1
		i++
	}
	return 1 << (i*8 + dead)
}

func (s state) outcomes() outcomes {
	var o outcomes
	for i := range 3 {
		if s>>(i*8)&0xff != 0 {
			o |= 1 << i
		}
	}
	return o
}

// plain is the outcomes of s on paths that branched on the reply only.
func (s state) plain() outcomes {
	var o outcomes
	s.each(func(oc outcomes, dead int) {
		if dead&other == 0 {
			o |= oc
		}
	})
	return o
}

// each calls fn for every pair in s.
func (s state) each(fn func(o outcomes, dead int)) {
	for i := range 3 {
		for d := range 8 {
			if s&(1<<(i*8+d)) != 0 {
				fn(1<<i, d)
			}
		}
	}
}

var start = bit(acquired, 0) | bit(busy, 0) | bit(failed, 0)

// tri is a condition's value for one outcome.
type tri uint8

const (
	unknown tri = iota
	yes
	no
)

func truth(b bool) tri {
	if b {
		return yes
	}
	return no
}

func (t tri) not() tri {
	switch t {
	case yes:
		return no
	case no:
		return yes
	}
	return unknown
}

type sinkKind uint8

const (
	// retTrue: a return of true in the slot of the function's bool
	// result (the function reports "acquired").
	retTrue sinkKind = iota + 1
	// release: the lock's release in the same function, directly or by a
	// helper it calls, or a deferred release registered after every test
	// of the reply: the critical section is behind it.
	release
	// retNil: a return of a nil error from a function that reports busy
	// as a non-nil error and does not release the lock itself (it hands
	// the lock to its caller, who takes nil for acquired).
	retNil
	// work: a call of the work the function was handed (a parameter of
	// function type, workParam), at a point that the acquired outcome
	// reaches too: the critical section, run whatever the reply said.
	work
)

type sink struct {
	kind sinkKind
	node ast.Node
	rel  *lockid.Release
	call *ast.CallExpr // for work, the call of the work parameter
	s    outcomes
	// plain: the outcomes that reach the sink on paths that branched on
	// the reply only.
	plain outcomes
}

type flow struct {
	pass *analysis.Pass
	res  *redisops.Result
	info *types.Info
	a    *redisops.Op
	out  redisops.Outcome
	// val and err are the variables carrying the reply, or nil when it is
	// read in place (out.Value / out.Err are the accessor calls).
	val, err types.Object
	// tags maps the expressions of tag-switch cases to the tag.
	tags map[ast.Expr]ast.Expr
	fn   *funcFacts
	// rels are the releases in the acquire's own function body; gets are
	// the calls reading the lock key there (an ownership check by token).
	rels []lockid.Release
	gets []*ast.CallExpr
	// boolIdx is the index of the function's only bool result (-1 if
	// none), nres the number of results. errIdx is the index of its last
	// result when that is an error and it has no bool result (-1 if not).
	boolIdx, nres, errIdx int
	// lastErr is the index of the function's last result when that is an
	// error, bool result or not (-1 if not): where a fail-closed fix puts
	// the acquire's error.
	lastErr int
	// works are the function's parameters that are its work (workParam).
	works map[types.Object]bool
	// lastUse is the end of the last read of the reply: a deferred release
	// registered after it runs whatever the reply said.
	lastUse token.Pos

	sinks  map[ast.Node]*sink
	retAcq bool // acquired reaches a return of true or of the value
	// nilAcq: acquired reaches a return of a nil error; busyErr: busy
	// reaches a return of a non-nil error; busyNil: busy reaches a return
	// of a nil error.
	nilAcq, busyErr, busyNil bool
	bad                      bool // a test of the reply that this check does not read
}

func newFlow(pass *analysis.Pass, res *redisops.Result, locks *lockid.Locks, fn *funcFacts, a *redisops.Op, out redisops.Outcome) *flow {
	f := &flow{pass: pass, res: res, info: pass.TypesInfo, fn: fn, a: a, out: out, boolIdx: -1, errIdx: -1, lastErr: -1, sinks: map[ast.Node]*sink{}}
	if id, ok := out.Value.(*ast.Ident); ok {
		f.val = f.info.ObjectOf(id)
	}
	if id, ok := out.Err.(*ast.Ident); ok {
		f.err = f.info.ObjectOf(id)
	}
	if out.Value == nil && out.Err == nil {
		return nil
	}
	var sig *types.Signature
	switch n := a.Func.Node.(type) {
	case *ast.FuncDecl:
		if fn, ok := f.info.Defs[n.Name].(*types.Func); ok {
			sig = fn.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		sig, _ = f.info.TypeOf(n).(*types.Signature)
	}
	if sig != nil {
		f.nres = sig.Results().Len()
		for i := range f.nres {
			if b, ok := sig.Results().At(i).Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
				if f.boolIdx >= 0 {
					f.boolIdx = -2
				}
				if f.boolIdx == -1 {
					f.boolIdx = i
				}
			}
		}
	}
	if sig != nil && f.nres > 0 && types.Identical(sig.Results().At(f.nres-1).Type(), types.Universe.Lookup("error").Type()) {
		f.lastErr = f.nres - 1
		if f.boolIdx == -1 {
			f.errIdx = f.nres - 1
		}
	}
	body := a.Func.Body
	for _, r := range locks.Releases(a) {
		if r.Evidence == lockid.SameFunc && r.Op.Func == a.Func ||
			r.Evidence == lockid.ViaHelper && r.Call != nil && body.Pos() <= r.Call.Pos() && r.Call.End() <= body.End() && r.Call.Pos() > a.Call.End() {
			f.rels = append(f.rels, r)
		}
	}
	if sig != nil {
		for i := range sig.Params().Len() {
			if p := sig.Params().At(i); workParam(p.Type()) {
				if f.works == nil {
					f.works = map[types.Object]bool{}
				}
				f.works[p] = true
			}
		}
	}
	if len(f.rels) == 0 && f.boolIdx < 0 && f.errIdx < 0 && len(f.works) == 0 {
		return nil // no sink: nothing to follow
	}
	if f.derived(a, out) {
		return nil
	}
	for _, op := range a.Func.OpsOn(a.KeyForm()) {
		if op.Kind == redisops.Get && op.Call.Pos() > a.Call.Pos() {
			if ev, _ := locks.Match(a, op, op.Key()); ev == lockid.SameFunc {
				f.gets = append(f.gets, op.Call)
			}
		}
	}
	f.tags = fn.tags
	f.lastUse = a.Call.End()
	for _, obj := range []types.Object{f.val, f.err} {
		if uses := f.fn.uses[obj]; obj != nil && len(uses) > 0 {
			f.lastUse = max(f.lastUse, uses[len(uses)-1].Node().End())
		}
	}
	for _, e := range []ast.Expr{out.Value, out.Err} {
		if e != nil {
			f.lastUse = max(f.lastUse, e.End())
		}
	}
	return f
}

// relPos is where the release r happens in the acquiring function: the
// helper call for a release made by a helper, else the release itself.
func relPos(r *lockid.Release) token.Pos {
	if r.Evidence == lockid.ViaHelper && r.Call != nil {
		return r.Call.Pos()
	}
	return r.Op.Call.Pos()
}

// run propagates the outcome from the acquire through the function's
// control-flow graph, recording what reaches each sink.
func (f *flow) run() {
	b0, i0 := f.a.Func.Locate(f.a.Call.Pos())
	if b0 == nil {
		f.bad = true
		return
	}
	// Only nodes at or before last can change what the flow finds (see
	// horizon); blocks from which none can be reached are not visited, so
	// an acquire costs the code up to its last use, not the whole function.
	last := f.horizon()
	in := map[*cfg.Block]state{}
	type item struct {
		b    *cfg.Block
		from int
		s    state
	}
	work := []item{{b0, i0, 0}}
	push := func(b *cfg.Block, s state) {
		if s == 0 || in[b]|s == in[b] || !f.a.Func.MayReach(b, last) {
			return
		}
		in[b] |= s
		work = append(work, item{b, 0, in[b]})
	}
	for len(work) > 0 && !f.bad {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		b, s := it.b, it.s
		for i := it.from; i < len(b.Nodes); i++ {
			n := b.Nodes[i]
			if b == b0 && i == i0 {
				s = start
			} else if s != 0 {
				s = f.assign(n, s)
			}
			if s == 0 {
				continue
			}
			f.visit(n, s)
			s = f.owned(n, s)
			s = f.exitOnErr(n, s)
		}
		if len(b.Succs) == 2 && len(b.Nodes) > 0 {
			cond, _ := b.Nodes[len(b.Nodes)-1].(ast.Expr)
			push(b.Succs[0], f.refine(cond, s, true))
			push(b.Succs[1], f.refine(cond, s, false))
			continue
		}
		for _, succ := range b.Succs {
			push(succ, s)
		}
	}
}

// horizon is the position of the last node the flow must reach: what it
// finds is recorded at releases of the lock (visit), at returns of the
// function's bool (visit), and at conditions that read a reply variable
// (atom sets bad); a tag switch's case is read through its tag, itself a
// use. Nodes after all of these change only the state, which nothing reads
// any more.
func (f *flow) horizon() token.Pos {
	if f.boolIdx >= 0 || f.errIdx >= 0 && len(f.rels) == 0 || len(f.works) > 0 {
		return f.a.Func.Body.End()
	}
	last := f.a.Call.End()
	for i := range f.rels {
		last = max(last, relPos(&f.rels[i]))
	}
	for _, obj := range []types.Object{f.val, f.err} {
		if uses := f.fn.uses[obj]; obj != nil && len(uses) > 0 {
			last = max(last, uses[len(uses)-1].Node().Pos())
		}
	}
	for _, e := range []ast.Expr{f.out.Value, f.out.Err} {
		if e != nil {
			last = max(last, e.End())
		}
	}
	return last
}

// assign marks the reply variables dead when n assigns them.
func (f *flow) assign(n ast.Node, s state) state {
	kill := 0
	ast.Inspect(n, func(n ast.Node) bool {
		var targets []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			targets = n.Lhs
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				targets = []ast.Expr{n.X}
			}
		case *ast.IncDecStmt:
			targets = []ast.Expr{n.X}
		case *ast.RangeStmt:
			targets = []ast.Expr{n.Key, n.Value}
		}
		for _, t := range targets {
			id, ok := ast.Unparen(t).(*ast.Ident)
			if !ok {
				continue
			}
			obj := f.info.ObjectOf(id)
			if obj != nil && obj == f.err {
				kill |= errDead
			}
			if obj != nil && obj == f.val {
				kill |= valDead
			}
		}
		return true
	})
	if kill == 0 {
		return s
	}
	var r state
	s.each(func(o outcomes, dead int) { r |= bit(o, dead|kill) })
	return r
}

// owned drops busy and failed after a read of the lock key: code that
// reads the key after a failed acquire is checking whether it owns it
// anyway (the recommended answer to a retried SET NX whose reply was lost),
// which this check does not follow.
func (f *flow) owned(n ast.Node, s state) state {
	for _, g := range f.gets {
		if n.Pos() <= g.Pos() && g.Pos() < n.End() {
			var r state
			s.each(func(o outcomes, dead int) {
				if o == acquired {
					r |= bit(o, dead)
				}
			})
			return r
		}
	}
	return s
}

// exitOnErr drops the outcomes with a non-nil error after a statement
// that hands the acquire's error to a function of the package that never
// returns when it is not nil (func check(err error) { if err != nil {
// log.Fatal(err) } }): past it, the error is nil.
func (f *flow) exitOnErr(n ast.Node, s state) state {
	es, ok := n.(*ast.ExprStmt)
	if !ok {
		return s
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return s
	}
	fn := typeutil.StaticCallee(f.info, call)
	if fn == nil || fn.Pkg() != f.pass.Pkg || call.Ellipsis.IsValid() {
		return s
	}
	decl := f.res.Decl(f.info, fn)
	if decl == nil || decl.Body == nil || len(decl.Body.List) == 0 {
		return s
	}
	var param types.Object
	i := 0
	for _, field := range decl.Type.Params.List {
		for _, name := range field.Names {
			if i < len(call.Args) && f.isErr(call.Args[i]) {
				param = f.info.Defs[name]
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	if param == nil || !exitsIfSet(f.info, decl.Body.List[0], param) {
		return s
	}
	var r state
	s.each(func(o outcomes, dead int) {
		if dead&errDead != 0 || o == acquired || o == busy && busyInValue(f.out.Busy) {
			r |= bit(o, dead)
		}
	})
	return r
}

// exitsIfSet reports whether st is if p != nil { ...; call } (no init, no
// else) whose last statement is a call that never returns.
func exitsIfSet(info *types.Info, st ast.Stmt, p types.Object) bool {
	is, ok := st.(*ast.IfStmt)
	if !ok || is.Init != nil || is.Else != nil || len(is.Body.List) == 0 {
		return false
	}
	cond, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ {
		return false
	}
	x, y := ast.Unparen(cond.X), ast.Unparen(cond.Y)
	if tv, ok := info.Types[x]; ok && tv.IsNil() {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	if !ok || info.Uses[id] != p {
		return false
	}
	if tv, ok := info.Types[y]; !ok || !tv.IsNil() {
		return false
	}
	last, ok := is.Body.List[len(is.Body.List)-1].(*ast.ExprStmt)
	if !ok {
		return false
	}
	c, ok := ast.Unparen(last.X).(*ast.CallExpr)
	return ok && redisops.NeverReturns(info, c)
}

// visit records what reaches the sinks in n.
func (f *flow) visit(n ast.Node, s state) {
	record := func(kind sinkKind, node ast.Node, rel *lockid.Release) *sink {
		sk := f.sinks[node]
		if sk == nil {
			sk = &sink{kind: kind, node: node, rel: rel}
			f.sinks[node] = sk
		}
		sk.s |= s.outcomes()
		sk.plain |= s.plain()
		return sk
	}
	switch n := n.(type) {
	case *ast.ReturnStmt:
		if f.boolIdx >= 0 && len(n.Results) == f.nres {
			r := n.Results[f.boolIdx]
			isTrue := f.constBool(r)
			if isTrue != nil && *isTrue {
				record(retTrue, n, nil)
			}
			if s.outcomes()&acquired != 0 && (isTrue != nil && *isTrue || f.isVal(r)) {
				f.retAcq = true
			}
		}
		if f.errIdx >= 0 && len(f.rels) == 0 && len(n.Results) == f.nres {
			o := s.outcomes()
			if f.isNil(n.Results[f.errIdx]) {
				record(retNil, n, nil)
				f.nilAcq = f.nilAcq || o&acquired != 0
				f.busyNil = f.busyNil || o&busy != 0
			} else if o&busy != 0 {
				f.busyErr = true
			}
		}
	case *ast.GoStmt:
		return
	case *ast.DeferStmt:
		// A deferred release registered before the last test of the
		// reply says nothing: the tests may still leave.
		if n.Pos() < f.lastUse {
			return
		}
	}
	if len(f.works) > 0 {
		for _, call := range f.workCalls(n) {
			record(work, call, nil).call = call
		}
	}
	for i := range f.rels {
		r := &f.rels[i]
		if p := relPos(r); n.Pos() <= p && p < n.End() {
			record(release, n, r)
		}
	}
}

// workParam reports whether a parameter of type t is work handed to the
// function to run under the lock: a func with no parameters or one
// context.Context, and no results or one error (func(), func() error,
// func(context.Context) error). A callback that takes what happened (an
// error handler, a logger, a key builder) is not one.
func workParam(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() > 1 || sig.Results().Len() > 1 {
		return false
	}
	if sig.Params().Len() == 1 {
		named, ok := types.Unalias(sig.Params().At(0).Type()).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "context" || named.Obj().Name() != "Context" {
			return false
		}
	}
	return sig.Results().Len() == 0 || types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
}

// workCalls are the calls of a work parameter in n (not in a function
// literal, a go or a defer statement, which run elsewhere or later).
func (f *flow) workCalls(n ast.Node) []*ast.CallExpr {
	var out []*ast.CallExpr
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && f.works[f.info.Uses[id]] {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

func (f *flow) constBool(e ast.Expr) *bool {
	tv, ok := f.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
		return nil
	}
	b := constant.BoolVal(tv.Value)
	return &b
}

// refine keeps the pairs of s for which cond can evaluate to t.
func (f *flow) refine(cond ast.Expr, s state, t bool) state {
	if cond == nil || s == 0 {
		return s
	}
	cond = ast.Unparen(cond)
	switch x := cond.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return f.refine(x.X, s, !t)
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			if t {
				return f.refine(x.Y, f.refine(x.X, s, true), true)
			}
			return f.refine(x.X, s, false) | f.refine(x.Y, f.refine(x.X, s, true), false)
		case token.LOR:
			if t {
				return f.refine(x.X, s, true) | f.refine(x.Y, f.refine(x.X, s, false), true)
			}
			return f.refine(x.Y, f.refine(x.X, s, false), false)
		}
	}
	reads := f.reads(cond)
	var r state
	s.each(func(o outcomes, dead int) {
		if v := f.atom(cond, o, dead); v == unknown || v == truth(t) {
			if reads&^dead == 0 {
				dead |= other // a branch on something else
			}
			r |= bit(o, dead)
		}
	})
	return r
}

// reads says what of the reply cond mentions: valDead for its value
// variable, errDead for its error variable (the bits that kill them), or
// both for the accessor calls or the acquire itself, read in place.
func (f *flow) reads(cond ast.Expr) int {
	r := 0
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			switch obj := f.info.ObjectOf(n); {
			case obj == nil:
			case obj == f.val:
				r |= valDead
			case obj == f.err:
				r |= errDead
			}
		case ast.Expr:
			if n == f.out.Value || n == f.out.Err || n == ast.Expr(f.a.Call) {
				r |= valDead | errDead
			}
		}
		return true
	})
	return r
}

// atom evaluates a condition with no &&, || or ! at the top, for one
// outcome. A condition about the reply that it cannot read sets f.bad.
func (f *flow) atom(e ast.Expr, o outcomes, dead int) tri {
	if tag, ok := f.tags[e]; ok {
		if v, ok := f.cmp(tag, e, token.EQL, o, dead); ok {
			return v
		}
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op == token.EQL || x.Op == token.NEQ {
			if v, ok := f.cmp(x.X, x.Y, x.Op, o, dead); ok {
				return v
			}
		}
	case *ast.CallExpr:
		if isErrorsIs(f.info, x) && len(x.Args) == 2 && f.isErr(x.Args[0]) {
			if dead&errDead != 0 {
				return unknown
			}
			if f.a.IsBusyErr(f.info, x.Args[1]) {
				return f.errIsBusy(o)
			}
			// errors.Is(err, other): false unless the acquire failed, or
			// was busy where busy is an error of its own kind.
			if o == failed || o == busy && f.out.Busy == redisops.ErrOnly {
				return unknown
			}
			return no
		}
		if arg, ok := f.a.BusyTest(f.info, x); ok && f.isErr(arg) {
			if dead&errDead != 0 {
				return unknown
			}
			return f.errIsBusy(o)
		}
	}
	if f.isVal(e) && f.out.Busy == redisops.BusyFalse {
		if dead&valDead != 0 {
			return unknown
		}
		return truth(o == acquired)
	}
	if f.mentions(e, dead) {
		f.bad = true
	}
	return unknown
}

// cmp evaluates x op y (== or !=) when one side is the reply's value or
// error.
func (f *flow) cmp(x, y ast.Expr, op token.Token, o outcomes, dead int) (tri, bool) {
	for _, p := range [2][2]ast.Expr{{x, y}, {y, x}} {
		l, r := p[0], p[1]
		var v tri
		switch {
		case f.isErr(l) && f.isNil(r):
			if dead&errDead != 0 {
				return unknown, true
			}
			v = truth(o == acquired || o == busy && busyInValue(f.out.Busy))
		case f.isErr(l) && f.a.IsBusyErr(f.info, r):
			if dead&errDead != 0 {
				return unknown, true
			}
			v = f.errIsBusy(o)
		case f.isVal(l) && f.constBool(r) != nil && f.out.Busy == redisops.BusyFalse:
			if dead&valDead != 0 {
				return unknown, true
			}
			v = truth((o == acquired) == *f.constBool(r))
		case f.isVal(l) && f.out.Busy == redisops.BusyNil && (f.isNil(r) || constval.String(f.info, r) != nil):
			if dead&valDead != 0 {
				return unknown, true
			}
			// nil when held or failed, the status ("OK") when set.
			v = truth(o == acquired && constval.String(f.info, r) != nil && *constval.String(f.info, r) == "OK" || o != acquired && f.isNil(r))
		case f.isVal(l) && f.out.Busy == redisops.BusyZero && constval.Int(f.info, r) != nil:
			if dead&valDead != 0 {
				return unknown, true
			}
			got := int64(0)
			if o == acquired {
				got = 1
			}
			v = truth(got == *constval.Int(f.info, r))
		case f.isVal(l) && f.out.Busy == redisops.BusyErr && constval.String(f.info, r) != nil:
			if dead&valDead != 0 {
				return unknown, true
			}
			// The status is "OK" when the key was set and "" otherwise.
			got := ""
			if o == acquired {
				got = "OK"
			}
			v = truth(got == *constval.String(f.info, r))
		default:
			continue
		}
		if op == token.NEQ {
			v = v.not()
		}
		return v, true
	}
	return unknown, false
}

func (f *flow) errIsBusy(o outcomes) tri {
	return truth(o == busy && f.out.Busy == redisops.BusyErr)
}

func (f *flow) isNil(e ast.Expr) bool {
	tv, ok := f.info.Types[e]
	return ok && tv.IsNil()
}

func (f *flow) isVal(e ast.Expr) bool { return f.is(e, f.val, f.out.Value) }
func (f *flow) isErr(e ast.Expr) bool { return f.is(e, f.err, f.out.Err) }

func (f *flow) is(e ast.Expr, obj types.Object, inline ast.Expr) bool {
	e = ast.Unparen(e)
	if obj != nil {
		id, ok := e.(*ast.Ident)
		return ok && f.info.Uses[id] == obj
	}
	return inline != nil && e == inline
}

// mentions reports whether e reads a live reply variable.
func (f *flow) mentions(e ast.Expr, dead int) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		if x, ok := n.(ast.Expr); ok && (dead&valDead == 0 && f.isVal(x) || dead&errDead == 0 && f.isErr(x)) {
			found = true
		}
		return !found
	})
	return found
}

// derived reports whether the reply flows somewhere this check does not
// follow: a test of it outside a condition or a return (acquired := ok &&
// err == nil), a copy (held := ok), or the value passed to a call whose
// result is used. Tests the flow cannot read then decide, so it stays
// silent.
func (f *flow) derived(a *redisops.Op, out redisops.Outcome) bool {
	check := func(cur inspector.Cursor, isValue bool) bool {
		e := cur.Node()
		walked := false
	up:
		for {
			p := cur.Parent()
			switch x := p.Node().(type) {
			case *ast.ParenExpr:
			case *ast.UnaryExpr:
				if x.Op != token.NOT {
					break up
				}
			case *ast.BinaryExpr:
				switch x.Op {
				case token.LAND, token.LOR, token.EQL, token.NEQ:
				default:
					break up
				}
			case *ast.CallExpr:
				if _, ok := f.a.BusyTest(f.info, x); !ok && !isErrorsIs(f.info, x) {
					break up
				}
				if len(x.Args) == 0 || ast.Unparen(x.Args[0]) != e {
					break up
				}
			default:
				break up
			}
			cur, e, walked = p, p.Node(), true
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.IfStmt:
			return p.Cond != e
		case *ast.ForStmt:
			return p.Cond != e
		case *ast.SwitchStmt:
			return p.Tag != e
		case *ast.CaseClause:
			return false
		case *ast.ReturnStmt:
			return false
		case *ast.CallExpr:
			// Passed to a call: an error may go anywhere; a value only
			// to a call made for its effect (log.Printf(…, ok)).
			if walked {
				return true
			}
			if !isValue {
				return false
			}
			_, stmt := cur.Parent().Parent().Node().(*ast.ExprStmt)
			return !stmt
		case *ast.SelectorExpr:
			return walked || isValue // err.Error() is fine
		case *ast.AssignStmt:
			// _ = ok only silences the compiler: the reply is not read.
			return walked || !blankTarget(p, e)
		}
		return true
	}
	if f.val == nil && out.Value != nil || f.err == nil && out.Err != nil {
		// Read in place: the accessor call itself.
		return check(out.ExprCursor, out.Value != nil)
	}
	uses := f.fn.uses[f.val]
	if f.err != f.val {
		uses = append(slices.Clip(uses), f.fn.uses[f.err]...)
	}
	for _, cur := range uses {
		id := cur.Node().(*ast.Ident)
		obj := f.info.Uses[id]
		if obj == nil || obj != f.val && obj != f.err {
			continue
		}
		if _, ok := cur.Parent().Node().(*ast.AssignStmt); ok {
			// As an assignment target it is a new value (flow.assign); as
			// a source it is a copy.
			as := cur.Parent().Node().(*ast.AssignStmt)
			target := false
			for _, l := range as.Lhs {
				if l == id {
					target = true
				}
			}
			if target {
				continue
			}
		}
		if check(cur, obj == f.val) {
			return true
		}
	}
	return false
}

// funcFacts is what every flow in one function reads of it, gathered in
// one walk: the tag-switch cases, and the uses of each variable (cursors at
// the identifiers, in source order).
type funcFacts struct {
	tags map[ast.Expr]ast.Expr
	uses map[types.Object][]inspector.Cursor
}

func (c *checker) facts(a *redisops.Op) *funcFacts {
	if fn := c.funcs[a.Func]; fn != nil {
		return fn
	}
	fn := &funcFacts{uses: map[types.Object][]inspector.Cursor{}}
	for fcur := range a.Cursor.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		for cur := range fcur.Preorder((*ast.Ident)(nil), (*ast.SwitchStmt)(nil)) {
			switch n := cur.Node().(type) {
			case *ast.Ident:
				if obj := c.pass.TypesInfo.Uses[n]; obj != nil {
					fn.uses[obj] = append(fn.uses[obj], cur)
				}
			case *ast.SwitchStmt:
				if n.Tag == nil {
					continue
				}
				for _, cl := range n.Body.List {
					for _, e := range cl.(*ast.CaseClause).List {
						if fn.tags == nil {
							fn.tags = map[ast.Expr]ast.Expr{}
						}
						fn.tags[e] = n.Tag
					}
				}
			}
		}
		break
	}
	if c.funcs == nil {
		c.funcs = map[*redisops.Func]*funcFacts{}
	}
	c.funcs[a.Func] = fn
	return fn
}

// blankTarget reports whether as assigns e to the blank identifier.
func blankTarget(as *ast.AssignStmt, e ast.Node) bool {
	if len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for i, r := range as.Rhs {
		if r == e {
			id, ok := as.Lhs[i].(*ast.Ident)
			return ok && id.Name == "_"
		}
	}
	return false
}
