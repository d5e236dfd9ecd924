package txacquire

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV102",
	Name:  "txacquire",
	Title: "lock acquired without a TTL and expired in the same transaction or pipeline",
	Why: `A transaction (MULTI/EXEC, TxPipelined) is atomic but has no conditions:
every queued command runs. When SETNX (SetNX with a zero TTL, SET NX without
EX/PX) and EXPIRE of the same key are queued together, the EXPIRE runs even
when SETNX lost because another process holds the lock, and rewrites the TTL
of that owner's lock: its lock is extended, or cut short, by a process that
does not hold it. Queued before the SETNX, the EXPIRE finds no key when the
lock is free, and the lock is then taken with no TTL at all. GETSET (a
takeover) clears the TTL of the key: an EXPIRE queued before it is undone,
and one queued after it runs even when the takeover lost. A plain
pipeline (Pipelined) is not even atomic: other clients' commands can run
between the two.`,
	Fix: `Acquire and set the TTL in one command: SetNX(ctx, key, token, ttl), or
SetArgs with Mode "NX" and TTL; it needs no transaction. The suggested fix
moves the EXPIRE's TTL into the acquire and deletes the EXPIRE, leaving the
acquire where it is so that the code reading the pipeline's results still
builds. It is offered only when nothing reads the pipeline's command list
(whose positions would shift) or the EXPIRE's result, and when the EXPIRE
runs whenever the acquire is queued. A redigo transaction that queues
only the two and whose reply list is read for the SETNX reply alone
(arr, err := redis.Values(c.Do("EXEC")); an error check that leaves;
n, _ := redis.Int(arr[0], nil) used only in tests) becomes one
Do("SET", key, val, "NX", "EX", ttl) sent alone, and each test of n a
test of its reply against nil; otherwise the message says why there is no
fix. Other clients: redigo Do("SET", key, token, "NX", "PX", ms); rueidis
B().Set().Key(key).Value(token).Nx().PxMilliseconds(ms); gomemcache
Add(&memcache.Item{…, Expiration: seconds}).

Helpers that queue on a pipeline their caller hands them (a go-redis
Pipeliner parameter, a redigo connection they only Send on), in this
package or another, count as their commands queued at the call: the
finding is at the call that queues the EXPIRE, naming each helper and
its Redis call, with no fix (the TTL goes into the helper's acquire).

Not read as a lock: a literal key, not named like a lock, that one
function applies eight or more different commands to (a client's own
test queuing every command on key "1").`,
	Bad: `_, err := rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
	pipe.SetNX(ctx, key, token, 0)
	pipe.Expire(ctx, key, 30*time.Second)
	return nil
})`,
	Good:     `ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()`,
	Since:    "v0.1.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-667"},
}

// Analyzer is LV102 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV102 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, run)
}

// pair is one finding: an acquire and an expire of the same key queued in
// the same batch.
type pair struct {
	f    *redisops.Func
	a, e *redisops.Op
}

func run(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
	var pairs []pair
	expires := map[*redisops.Op]int{} // acquire → expires paired with it
	for _, f := range res.Funcs {
		for _, e := range f.Ops {
			// A renew helper that fixes the TTL itself has no TTL at its
			// call, and sets one all the same.
			fixedTTL := e.TTL == nil && e.Via != nil && e.Via.TTLConst != ""
			if e.Kind != redisops.Expire || !batched(e) || e.TTL == nil && !fixedTTL || e.Key() == nil || e.DeletesKey() {
				continue
			}
			for _, a := range f.OpsOn(e.KeyForm()) {
				if (a.Kind != redisops.Acquire && a.Kind != redisops.GetSet) || !a.NoTTL ||
					a.Scope.Node != e.Scope.Node || a.Scope.Kind != e.Scope.Kind ||
					a.Call.Pos() >= e.Call.Pos() && a.Call.Pos() < e.Call.End() ||
					!keyid.Same(a.KeyForm(), e.KeyForm()) ||
					!sameBatch(res, f, a, e) || checkedUnderWatch(pass, res, a) || lockid.Exercised(pass.TypesInfo, a) ||
					lockid.New(pass, res).Role(a) != lockid.RoleLock {
					continue
				}
				pairs = append(pairs, pair{f, a, e})
				expires[a]++
				break
			}
		}
	}
	for _, p := range pairs {
		reportPair(pass, res, r, p, expires[p.a] == 1)
	}
}

// batched: the operation is queued in a transaction or pipeline.
func batched(o *redisops.Op) bool {
	return o.Scope.Node != nil && (o.Scope.Kind == redisops.Tx || o.Scope.Kind == redisops.Pipeline)
}

// batchName names the batch an operation is queued in, for messages.
func batchName(sc redisops.Scope) string {
	if sc.Kind == redisops.Pipeline {
		return "pipeline"
	}
	return "transaction"
}

// sameBatch reports whether a and e, queued on the same pipeline, can be
// queued together: one can follow the other in f, and no flush of that
// pipeline (Exec, Discard) lies between them in the source, which would
// send them in different batches.
func sameBatch(res *redisops.Result, f *redisops.Func, a, e *redisops.Op) bool {
	lo, hi := a.Call.Pos(), e.Call.Pos()
	if hi < lo {
		lo, hi = hi, lo
	}
	for _, fl := range res.Flushes {
		if fl.Scope.Node == a.Scope.Node && lo < fl.Call.Pos() && fl.Call.Pos() < hi {
			return false
		}
	}
	return f.Reachable(a.Call.Pos(), e.Call.Pos()) || f.Reachable(e.Call.Pos(), a.Call.Pos())
}

// checkedUnderWatch reports whether the acquire's transaction runs in a
// Watch callback that reads the lock key before it: the optimistic
// check-then-set recipe, where EXEC aborts if the key changed after WATCH,
// so the queued EXPIRE never reaches another owner's lock.
func checkedUnderWatch(pass *analysis.Pass, res *redisops.Result, a *redisops.Op) bool {
	if !a.Scope.InWatch {
		return false
	}
	opener := a.Scope.Node
	var cb *ast.FuncLit
	for c := range a.Cursor.Enclosing((*ast.FuncLit)(nil)) {
		if lit := c.Node().(*ast.FuncLit); lit.Pos() < opener.Pos() && opener.End() <= lit.End() {
			cb = lit
			break
		}
	}
	if cb == nil {
		return false
	}
	for _, g := range res.Ops {
		if g.Kind == redisops.Get && g.Scope.Kind == redisops.Direct && g.Scope.InWatch &&
			cb.Pos() < g.Call.Pos() && g.Call.End() <= opener.Pos() &&
			keyid.Same(g.KeyForm(), a.KeyForm()) {
			return true
		}
	}
	return false
}

func reportPair(pass *analysis.Pass, res *redisops.Result, r *report.Reporter, p pair, single bool) {
	a, e := p.a, p.e
	key := fixes.Text(pass.Fset, a.Key())
	batch := batchName(a.Scope)
	related := "lock acquired here without a TTL, in the same " + batch
	if a.Kind == redisops.GetSet {
		related = "lock taken over here, its TTL cleared, in the same " + batch
	}
	// Helpers are named with their Redis call where they are first
	// mentioned: "setTTL (Expire at lock/lock.go:20)".
	eDesc, aDesc := e.Method, a.Method
	if e.Via != nil {
		eDesc = e.Via.Describe()
	}
	if a.Via != nil {
		// Where the acquire's Redis call is goes to the related
		// information.
		related += ", by " + a.Via.Describe()
	}
	var msg string
	switch {
	case a.Kind == redisops.GetSet && e.Call.Pos() < a.Call.Pos():
		msg = fmt.Sprintf("%s before %s in the same %s is undone by %s, which clears the TTL: the lock %s is held forever; use one SET with the TTL",
			eDesc, aDesc, batch, a.Method, key)
	case a.Kind == redisops.GetSet:
		msg = fmt.Sprintf("%s in the same %s as %s runs even when the takeover lost, on another owner's lock %s; use one SET with the TTL",
			eDesc, batch, aDesc, key)
	case e.Call.Pos() < a.Call.Pos():
		msg = fmt.Sprintf("%s before %s in the same %s expires nothing when the key is free, so the lock %s is held forever; %s",
			eDesc, aDesc, batch, key, a.Advice(redisops.AdviseTTL))
	default:
		msg = fmt.Sprintf("%s in the same %s as %s runs even when it lost, on another owner's lock %s; %s",
			eDesc, batch, aDesc, key, a.Advice(redisops.AdviseTTL))
	}
	d := analysis.Diagnostic{
		Pos:     e.Call.Pos(),
		End:     e.Call.End(),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: a.Call.Pos(), End: a.Call.End(), Message: related}},
	}
	if !single {
		d.Message += fmt.Sprintf(" (no fix: more than one EXPIRE follows the %s)", a.Method)
	} else if fix, why, ok := moveTTL(pass, res, p); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else {
		if why == "" {
			why = "can't move the TTL into " + a.Method
		}
		d.Message += " (no fix: " + why + ")"
	}
	r.Report(d)
}

// moveTTL builds the fix: the EXPIRE's TTL goes into the acquire, which
// stays where it is, and the EXPIRE statement is deleted; or, where the
// code reads the transaction's replies, the acquire and its TTL are sent
// alone and the reads become tests of its reply (Op.TxAlone). It fails
// rather than produce code that does not build or behaves differently in
// other ways, saying why when the reason is worth a user's reading.
func moveTTL(pass *analysis.Pass, res *redisops.Result, p pair) (analysis.SuggestedFix, string, bool) {
	fix, why, ok := moveTTLInPlace(pass, res, p)
	if ok || p.a.Kind != redisops.Acquire || p.e.TTL == nil || resultsUnread(res, p.a.Scope) {
		return fix, why, ok
	}
	edits, why, ok := p.a.TxAlone(pass, p.e, fixes.Text(pass.Fset, p.e.TTL))
	if !ok {
		if why == "" {
			// The code reads the batch's replies: deleting the EXPIRE
			// would move every reply after it.
			why = fmt.Sprintf("the %s's replies are read, and deleting the %s shifts them", batchName(p.a.Scope), p.e.Method)
		}
		return analysis.SuggestedFix{}, why, false
	}
	return analysis.SuggestedFix{
		Message:   fmt.Sprintf("Send one SET NX with the TTL alone, outside the %s, and test its reply", batchName(p.a.Scope)),
		TextEdits: edits,
	}, "", true
}

func moveTTLInPlace(pass *analysis.Pass, res *redisops.Result, p pair) (analysis.SuggestedFix, string, bool) {
	a, e := p.a, p.e
	switch {
	case a.Kind != redisops.Acquire:
		return analysis.SuggestedFix{}, a.Method + " takes no TTL", false
	case e.TTL == nil:
		return analysis.SuggestedFix{}, fmt.Sprintf("the TTL is inside %s", e.Via.Name), false
	case !fixes.InScopeAt(pass.TypesInfo, pass.Pkg, e.TTL, a.Call.Pos()):
		return analysis.SuggestedFix{}, fmt.Sprintf("the TTL is not in scope at the %s", a.Method), false
	}
	stmt, ok := fixes.Removable(pass.TypesInfo, e.Cursor)
	if !ok || stmt.Pos() <= a.Call.Pos() && a.Call.End() <= stmt.End() ||
		fixes.Orphans(p.f, pass.TypesInfo, p.f.Body, stmt.Pos(), stmt.End(), e.TTL) {
		return analysis.SuggestedFix{}, fmt.Sprintf("the %s cannot be deleted alone", e.Method), false
	}
	// The EXPIRE must be queued exactly when the acquire is: deleting one
	// queued on other paths too would drop it where no acquire replaces it,
	// and one queued under a condition of its own (Removable then takes the
	// whole if) would make the TTL unconditional.
	if !fixes.Together(a.Cursor, e.Cursor) {
		return analysis.SuggestedFix{}, fmt.Sprintf("the %s is not queued exactly when the %s is", e.Method, a.Method), false
	}
	// Deleting a queued command shifts or shortens the command list the
	// pipeline returns; code reading that list would read the wrong reply.
	if !resultsUnread(res, a.Scope) {
		return analysis.SuggestedFix{}, fmt.Sprintf("the %s's replies are read by position", batchName(a.Scope)), false
	}
	edits, ok := a.WithTTL(pass, e, fixes.Text(pass.Fset, e.TTL))
	if !ok {
		why := a.WithTTLWhy(pass, e, fixes.Text(pass.Fset, e.TTL))
		if why == "" {
			why = fmt.Sprintf("%s here cannot take the TTL", a.Method)
		}
		return analysis.SuggestedFix{}, why, false
	}
	edits, ok = fixes.WithDeletion(edits, fixes.DeleteStmt(pass, stmt))
	if !ok {
		return analysis.SuggestedFix{}, "the edits overlap", false
	}
	msg := fmt.Sprintf("Pass the TTL to %s and delete the %s", a.Method, e.Method)
	if onlyCommand(pass.TypesInfo, res, a, e) {
		msg += fmt.Sprintf("; %s is then the only command in %s, so the %s can be dropped and %s sent on its own",
			a.Method, fixes.Text(pass.Fset, a.Scope.Node.Fun), batchName(a.Scope), a.Method)
	}
	return analysis.SuggestedFix{Message: msg, TextEdits: edits}, "", true
}

// resultsUnread reports whether the command list of the batch is dropped:
// the call that opened it (closure form) or every flush of it (value form)
// stands as a statement or assigns its first result to _.
func resultsUnread(res *redisops.Result, sc redisops.Scope) bool {
	if closureForm(sc.Node) {
		c, ok := findCall(res, sc.Node)
		return ok && dropsFirstResult(c)
	}
	n := 0
	for _, fl := range res.Flushes {
		if fl.Scope.Node != sc.Node {
			continue
		}
		if !dropsFirstResult(fl.Cursor) {
			return false
		}
		n++
	}
	// No flush seen: the pipeline is sent elsewhere, where its results
	// may be read.
	return n > 0
}

// findCall finds call's cursor: by position, which skips the subtrees
// around it (FindNode from the root walks the package up to it, for every
// finding), and by identity only when the position does not lead to it.
func findCall(res *redisops.Result, call *ast.CallExpr) (inspector.Cursor, bool) {
	if c, ok := res.Inspector.Root().FindByPos(call.Pos(), call.End()); ok && c.Node() == call {
		return c, true
	}
	return res.Inspector.Root().FindNode(call)
}

func closureForm(opener *ast.CallExpr) bool {
	for _, arg := range opener.Args {
		if _, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}

// dropsFirstResult: the call at c is an expression statement (also
// deferred), or its first result is assigned to the blank identifier.
func dropsFirstResult(c inspector.Cursor) bool {
	switch p := c.Parent().Node().(type) {
	case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
		return true
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || p.Rhs[0] != c.Node() || len(p.Lhs) == 0 {
			return false
		}
		id, ok := p.Lhs[0].(*ast.Ident)
		return ok && id.Name == "_"
	}
	return false
}

// onlyCommand reports whether, once e is deleted, a is the only thing done
// with its pipeline besides sending it: the pipeline variable appears
// nowhere else in the scope that declares it.
func onlyCommand(info *types.Info, res *redisops.Result, a, e *redisops.Op) bool {
	recv, ok := ast.Unparen(a.Recv).(*ast.Ident)
	if !ok {
		return false
	}
	obj := info.Uses[recv]
	if obj == nil || obj.Parent() == nil {
		return false
	}
	known := map[ast.Expr]bool{ast.Unparen(a.Recv): true, ast.Unparen(e.Recv): true}
	for _, fl := range res.Flushes {
		if fl.Scope.Node == a.Scope.Node {
			if sel, ok := ast.Unparen(fl.Call.Fun).(*ast.SelectorExpr); ok {
				known[ast.Unparen(sel.X)] = true
			}
		}
	}
	scope := obj.Parent()
	var region ast.Node
	for c := range a.Cursor.Enclosing() {
		if n := c.Node(); n.Pos() <= scope.Pos() && scope.End() <= n.End() {
			region = n
			break
		}
	}
	if region == nil {
		return false
	}
	only := true
	ast.Inspect(region, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj && !known[id] {
			only = false
		}
		return only
	})
	return only
}
