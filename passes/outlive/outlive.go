package outlive

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV106",
	Name:  "outlive",
	Title: "work under a lock may run longer than the lock's TTL",
	Why: `A lock taken with a TTL T protects its critical section for T, no longer:
then the key expires and the next caller takes the lock while the first holder
is still working, and two processes run what the lock was meant to keep
single. Work inside the locked region that is given D >= T (a
context.WithTimeout or WithDeadline, a time.Sleep or time.After, a timeout
argument or Timeout field of a call it makes), with nothing renewing the lock,
is allowed to outlive it; a context with a longer timeout made before the
acquire and passed to the work is the same. The region runs from the acquire
to its release, or to the end of the function when the release is deferred.
Reported only when T and D are both constants, or both derived from the same
variable or configuration field, so that D >= T holds for every value; a
deadline taken from the caller, a renewal of the lock, or a timeout
shorter than the TTL stays silent.`,
	Fix: `Give the work a timeout shorter than the lock's TTL, and make the TTL 3-5x
the p99 duration of the work, so that the work always ends (or is cancelled)
while the lock is still held. Work that can legitimately run longer than any
fixed TTL needs the lock renewed while it runs (a compare-and-pexpire script
on a ticker, stopped when the work ends) or a lock library that renews.
There is no automatic fix: which of the two numbers is wrong is a decision.`,
	Bad: `ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()
if err != nil || !ok {
	return err
}
defer unlock(ctx, rdb, key, token)
ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
defer cancel()
return rebuildReport(ctx)`,
	Good: `ok, err := rdb.SetNX(ctx, key, token, 10*time.Minute).Result()
if err != nil || !ok {
	return err
}
defer unlock(ctx, rdb, key, token)
ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
defer cancel()
return rebuildReport(ctx)`,
	Since:    "v0.1.0",
	Severity: rules.Warning,
	CWE:      []string{"CWE-667", "CWE-362"},
}

// Analyzer is LV106 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV106 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, run)
}

func run(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
	var locks *lockid.Locks
	reported := map[token.Pos]bool{}
	timed := map[*redisops.Func][]ast.Node{}
	for _, a := range res.Ops {
		if a.Kind != redisops.Acquire || a.NoTTL || a.TTL == nil || a.Key() == nil || a.Func == nil || inTest(pass, a) {
			continue
		}
		unit := unitNanos(a.TTLUnit)
		if unit == 0 {
			continue
		}
		// Most lock functions wait for nothing: they cost one walk, and no
		// lock evidence is gathered for them.
		nodes, seen := timed[a.Func]
		if !seen {
			nodes = timedNodes(pass.TypesInfo, res, a.Func.Body)
			timed[a.Func] = nodes
		}
		if len(nodes) == 0 {
			continue
		}
		ev := &evaluator{info: pass.TypesInfo, body: a.Func.Body}
		ttl, ok := ev.eval(a.TTL)
		if !ok || ttl.sym.obj == nil && ttl.b.Sign() <= 0 {
			continue // a TTL ≤ 0 is LV104's
		}
		ttl = ttl.scale(unit)
		if locks == nil {
			locks = lockid.New(pass, res)
		}
		if locks.Role(a) != lockid.RoleLock {
			continue // a marker outlives the work by design
		}
		c := &checker{pass: pass, res: res, a: a, ev: ev, ttl: ttl, ttlText: ev.text(a.TTL, a.TTLUnit, ttl)}
		if c.ends = regionEnds(pass, locks, a); len(c.ends) == 0 {
			continue
		}
		found := c.findings(nodes)
		if len(found) == 0 || renewed(pass, res, locks, a) {
			continue
		}
		for _, f := range found {
			if reported[f.at.Pos()] {
				continue
			}
			reported[f.at.Pos()] = true
			related := []analysis.RelatedInformation{{Pos: a.Call.Pos(), End: a.Call.End(), Message: "lock acquired here with TTL " + c.ttlText}}
			if f.use != nil {
				related = append(related, analysis.RelatedInformation{Pos: f.use.Pos(), End: f.use.End(), Message: "the work runs here with that context"})
			}
			r.Report(analysis.Diagnostic{Pos: f.at.Pos(), End: f.at.End(), Message: f.msg, Related: related})
		}
	}
}

// unitNanos is the TTL unit in nanoseconds (0: not a duration).
func unitNanos(u redisops.Unit) int64 {
	switch u {
	case redisops.Duration:
		return 1
	case redisops.Millis:
		return 1e6
	case redisops.Seconds:
		return 1e9
	}
	return 0
}

// inTest reports whether op is in a _test.go file: tests sleep past a TTL
// on purpose, to see a lock expire.
func inTest(pass *analysis.Pass, op *redisops.Op) bool {
	return astx.InTest(pass.Fset, op.Call.Pos())
}

// renewWords are names of helpers that keep a lock alive; a call of one
// that is passed the lock's key counts as a renewal lockvet cannot see.
var renewWords = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)renew|extend|refresh|keep_?alive|heart_?beat|watch_?dog|touch|prolong`)
})

// renewed reports whether anything in the package may renew a's lock: an
// EXPIRE of its key, a write of it with a TTL, a script on it that
// expires it or that lockvet cannot read; or whether a's function passes
// the key to a helper named like a renewal.
func renewed(pass *analysis.Pass, res *redisops.Result, locks *lockid.Locks, a *redisops.Op) bool {
	for _, e := range locks.Candidates(a) {
		if e == a || !lockid.SetsTTL(e) {
			continue
		}
		for _, k := range e.Keys {
			if ev, _ := locks.Match(a, e, k); ev != 0 {
				return true
			}
		}
	}
	found := false
	ast.Inspect(a.Func.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || call.Pos() < a.Call.End() || res.Op(call) != nil {
			return !found
		}
		fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if !ok || !renewWords().MatchString(fn.Name()) {
			return true
		}
		for _, arg := range call.Args {
			if a.Func.Scope().Same(a.Key(), arg) {
				found = true
			}
		}
		return !found
	})
	return found
}

// end is where a's locked region ends: a release in a's function, or the
// call there of a helper that releases it; for a deferred release, the
// defer statement.
type end struct {
	node     ast.Node
	deferred bool
}

// regionEnds finds the ends of a's locked region in a's function.
func regionEnds(pass *analysis.Pass, locks *lockid.Locks, a *redisops.Op) []end {
	var ends []end
	for _, rel := range locks.Releases(a) {
		var at ast.Node
		switch rel.Evidence {
		case lockid.SameFunc:
			at = rel.Op.Call
		case lockid.ViaHelper:
			at = rel.Call
		default:
			continue
		}
		e := end{node: at}
		// The statement of a's function body that holds the release: a
		// defer (of the release, or of a function literal holding it).
		ast.Inspect(a.Func.Body, func(n ast.Node) bool {
			if n == nil || n.Pos() > at.Pos() || n.End() < at.End() {
				return false
			}
			switch n := n.(type) {
			case *ast.DeferStmt:
				e = end{node: n, deferred: true}
				return false
			case *ast.FuncLit:
				e.node = n // a release inside a literal that is not deferred
				return false
			}
			return true
		})
		if _, lit := e.node.(*ast.FuncLit); lit {
			continue // a goroutine or callback: where it runs is unknown
		}
		ends = append(ends, e)
	}
	return ends
}

// checker finds the timed work in one acquire's region.
type checker struct {
	pass    *analysis.Pass
	res     *redisops.Result
	a       *redisops.Op
	ev      *evaluator
	ttl     lin
	ttlText string
	ends    []end
}

// finding is one report: at the timed call (or literal), with the use of
// a context made before the acquire.
type finding struct {
	at, use ast.Node
	msg     string
}

// timedNodes lists the calls and literals of body, outside function
// literals, that may bound or make work wait: calls of the time and
// context functions, calls other than Redis commands that take a
// time.Duration argument, and literals with a Timeout field.
func timedNodes(info *types.Info, res *redisops.Result, body *ast.BlockStmt) []ast.Node {
	var out []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(info, n).(*types.Func)
			if !ok || fn.Pkg() == nil || res.Op(n) != nil {
				return true
			}
			switch fn.Pkg().Path() {
			case "time", "context":
				out = append(out, n)
				return true
			}
			for _, arg := range n.Args {
				if isDuration(info.TypeOf(arg)) {
					out = append(out, n)
					break
				}
			}
		case *ast.CompositeLit:
			if timeoutField(info, n) != nil {
				out = append(out, n)
			}
		}
		return true
	})
	return out
}

// timeoutField returns the value of lit's Timeout field, a time.Duration.
func timeoutField(info *types.Info, lit *ast.CompositeLit) ast.Expr {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Timeout" && isDuration(info.TypeOf(kv.Value)) {
			return kv.Value
		}
	}
	return nil
}

// findings finds the timed work among nodes (timedNodes) that is in the
// region.
func (c *checker) findings(nodes []ast.Node) []finding {
	var out []finding
	for _, n := range nodes {
		var f finding
		ok := false
		switch n := n.(type) {
		case *ast.CallExpr:
			f, ok = c.timedCall(n)
		case *ast.CompositeLit:
			f, ok = c.timed(n, timeoutField(c.pass.TypesInfo, n), false, "a Timeout of %[1]s is set under lock %[2]s, whose TTL is %[3]s")
		}
		if ok {
			out = append(out, f)
		}
	}
	return out
}

// timedCall recognizes the calls that bound or make the work wait.
func (c *checker) timedCall(call *ast.CallExpr) (finding, bool) {
	info := c.pass.TypesInfo
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return finding{}, false
	}
	name := fn.Pkg().Path() + "." + fn.Name()
	if n := len(call.Args); strings.HasPrefix(name, "context.With") && n < 2 || strings.HasPrefix(name, "time.") && n < 1 {
		return finding{}, false // f(g()) with g returning several values
	}
	switch name {
	case "time.Sleep":
		return c.timed(call, call.Args[0], false, "time.Sleep(%[1]s) while holding lock %[2]s, whose TTL is %[3]s")
	case "time.After", "time.NewTimer":
		return c.timed(call, call.Args[0], false, "waits up to %[1]s ("+fn.Name()+") while holding lock %[2]s, whose TTL is %[3]s")
	case "context.WithTimeout", "context.WithTimeoutCause":
		return c.context(call, call.Args[1], fn.Name())
	case "context.WithDeadline", "context.WithDeadlineCause":
		if d := sinceNow(info, c.deadlineDef(call.Args[1])); d != nil {
			return c.context(call, d, fn.Name())
		}
		return finding{}, false
	}
	if c.res.Op(call) != nil {
		return finding{}, false
	}
	// A timeout the work is given as an argument.
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return finding{}, false
	}
	for i, arg := range call.Args {
		if i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
			break
		}
		p := sig.Params().At(i)
		if isDuration(p.Type()) && timeoutName().MatchString(p.Name()) {
			return c.timed(arg, arg, false, "%[1]s is passed as the "+p.Name()+" of "+fn.Name()+" under lock %[2]s, whose TTL is %[3]s")
		}
	}
	return finding{}, false
}

var timeoutName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)timeout|deadline`) })

// deadlineDef returns what e, a deadline, is defined with when it is a
// local variable defined once, after the acquire (dl := time.Now().Add(d)
// and then context.WithDeadline(ctx, dl)); e itself otherwise. A deadline
// computed before the acquire leaves the work less than d after it, so it
// is not followed there.
func (c *checker) deadlineDef(e ast.Expr) ast.Expr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return e
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return e
	}
	if def, _ := astx.SoleDef(c.pass.TypesInfo, c.a.Func.Body, v); def != nil && def.Pos() > c.a.Call.End() {
		return def
	}
	return e
}

// sinceNow returns d for time.Now().Add(d).
func sinceNow(info *types.Info, e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Add" {
		return nil
	}
	now, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if fn, ok := typeutil.Callee(info, now).(*types.Func); !ok || fn.Pkg() == nil || fn.Pkg().Path() != "time" || fn.Name() != "Now" {
		return nil
	}
	return call.Args[0]
}

// context handles a context.WithTimeout/WithDeadline whose context is
// passed to work in the region (a context only the lock's own commands
// use bounds them, not the work): made in the region, its timeout is the
// work's; made before the acquire, it still is.
func (c *checker) context(call *ast.CallExpr, d ast.Expr, name string) (finding, bool) {
	if c.parentShorter(call.Args[0]) {
		return finding{}, false
	}
	v := c.assigned(call)
	if v == nil || c.contextDef(v) != call && call.Pos() < c.a.Call.Pos() {
		return finding{}, false
	}
	use := c.useOf(v, max(call.End(), c.a.Call.End()))
	if use == nil {
		return finding{}, false
	}
	if call.Pos() > c.a.Call.End() {
		return c.timed(call, d, false, "the work under lock %[2]s gets %[1]s (context."+name+"), not less than its TTL %[3]s")
	}
	f, ok := c.compare(call, d, true, "the context given %[1]s here (context."+name+") before the lock is taken carries the work under lock %[2]s, whose TTL is %[3]s")
	f.use = use
	return f, ok
}

// useOf returns a call in the region, after from, that is passed v and is
// not a Redis command.
func (c *checker) useOf(v *types.Var, from token.Pos) ast.Node {
	var use ast.Node
	ast.Inspect(c.a.Func.Body, func(n ast.Node) bool {
		if use != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if n.Pos() < from || c.res.Op(n) != nil {
				return true
			}
			for _, arg := range n.Args {
				if id, ok := ast.Unparen(arg).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v && c.inRegion(n) {
					use = n
					return false
				}
			}
		}
		return true
	})
	return use
}

// contextDef returns the call that v, a context variable, is assigned from
// when that is a statement of the function's body itself (so that it runs
// before everything after it) and v's only write in the function.
func (c *checker) contextDef(v *types.Var) *ast.CallExpr {
	info, body := c.pass.TypesInfo, c.a.Func.Body
	for _, st := range body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 {
			continue
		}
		if id, ok := as.Lhs[0].(*ast.Ident); !ok || info.ObjectOf(id) != v {
			continue
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || astx.AssignedBetween(info, body, v, body.Pos(), as.Pos()) || astx.AssignedBetween(info, body, v, as.End(), body.End()) {
			return nil
		}
		return call
	}
	return nil
}

// assigned returns the variable the context result of call is defined
// into (ctx in ctx, cancel := context.WithTimeout(…)).
func (c *checker) assigned(call *ast.CallExpr) *types.Var {
	var v *types.Var
	ast.Inspect(c.a.Func.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || v != nil {
			return v == nil
		}
		if len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == call && len(as.Lhs) >= 1 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				v, _ = c.pass.TypesInfo.ObjectOf(id).(*types.Var)
			}
		}
		return true
	})
	return v
}

// parentShorter reports whether parent is a context this function derived
// with a timeout shorter than the TTL: the work's deadline is then that
// one.
func (c *checker) parentShorter(parent ast.Expr) bool {
	id, ok := ast.Unparen(parent).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	call := c.contextDef(v)
	if call == nil || len(call.Args) < 2 {
		return false
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "context" {
		return false
	}
	d := call.Args[1]
	switch fn.Name() {
	case "WithTimeout", "WithTimeoutCause":
	case "WithDeadline", "WithDeadlineCause":
		if d = sinceNow(c.pass.TypesInfo, d); d == nil {
			return false
		}
	default:
		return false
	}
	pd, ok := c.ev.eval(d)
	if !ok {
		return false
	}
	ge, known := geq(pd, c.ttl, false)
	return known && !ge
}

// timed reports the timed work at, of duration d, when it is in the region
// and d is not less than the TTL.
func (c *checker) timed(at ast.Node, d ast.Expr, strict bool, format string) (finding, bool) {
	if !c.inRegion(at) {
		return finding{}, false
	}
	return c.compare(at, d, strict, format)
}

// compare builds the finding when d ≥ the TTL (d > the TTL when strict)
// for every value of what they are derived from.
func (c *checker) compare(at ast.Node, d ast.Expr, strict bool, format string) (finding, bool) {
	dv, ok := c.ev.eval(d)
	if !ok {
		return finding{}, false
	}
	if ge, known := geq(dv, c.ttl, strict); !known || !ge {
		return finding{}, false
	}
	msg := fmt.Sprintf(format, c.ev.text(d, redisops.Duration, dv), fixes.Text(c.pass.Fset, c.a.Key()), c.ttlText) +
		": the lock may expire mid-work; shorten it or renew the lock (no fix: shortening the work or lengthening the TTL is a choice)"
	return finding{at: at, msg: msg}, true
}

// inRegion reports whether n can run while a's lock is held: after the
// acquire, and before a release that follows it without a way back to the
// acquire (a retry loop's wait for a busy lock is not in the region), or
// after a deferred release is registered.
func (c *checker) inRegion(n ast.Node) bool {
	f := c.a.Func
	if n.Pos() <= c.a.Call.Pos() || !f.Reachable(c.a.Call.Pos(), n.Pos()) {
		return false
	}
	var walls []ast.Node
	for _, e := range c.ends {
		if !e.deferred {
			walls = append(walls, e.node)
		}
	}
	for _, e := range c.ends {
		if e.deferred {
			if e.node.Pos() < n.Pos() && f.Reachable(e.node.Pos(), n.Pos()) {
				return true
			}
			continue
		}
		if f.Reachable(n.Pos(), e.node.Pos()) && !reaches(f, n.Pos(), c.a.Call.Pos(), walls) {
			return true
		}
	}
	return false
}

// reaches reports whether control can flow in f from after the node at
// from to the node at to without passing through a node that contains
// one of walls.
func reaches(f *redisops.Func, from, to token.Pos, walls []ast.Node) bool {
	bf, nf := f.Locate(from)
	bt, nt := f.Locate(to)
	if bf == nil || bt == nil {
		return false
	}
	blocked := func(n ast.Node) bool {
		return slices.ContainsFunc(walls, func(w ast.Node) bool { return n.Pos() <= w.Pos() && w.End() <= n.End() })
	}
	// scan walks b's nodes from i: found, or stopped by a wall.
	scan := func(b *cfg.Block, i int) (found, stop bool) {
		for ; i < len(b.Nodes); i++ {
			if b == bt && i == nt {
				return true, true
			}
			if blocked(b.Nodes[i]) {
				return false, true
			}
		}
		return false, false
	}
	if found, stop := scan(bf, nf+1); stop {
		return found
	}
	seen := map[*cfg.Block]bool{}
	stack := slices.Clone(bf.Succs)
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if found, stop := scan(b, 0); found {
			return true
		} else if stop {
			continue
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

func isDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}
