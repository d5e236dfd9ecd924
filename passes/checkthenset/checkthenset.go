package checkthenset

// Decisions where the rule leaves room:
//
//   - Its own check, not LV101: LV101 is an acquire that is atomic but
//     gets its TTL in a second command (a crash in between leaves a lock
//     that never expires). Here there is no atomic acquire at all: the
//     write is a plain SET, with or without a TTL, and two live processes
//     both take the lock (CWE-367, a time-of-check to time-of-use race).
//     Another failure, another fix, and a user may want one without the
//     other.
//   - The shape alone is not evidence. GET, then SET when nothing was
//     there is also how a cache is filled, a session written or a default
//     stored. The write is a claim only when the package treats its key
//     as held: it is released after the write (a DEL in the same function
//     after it, a release helper called with it, a Lock/Unlock
//     counterpart building the key the same way, or a compare-and-delete
//     script), or deleted elsewhere (a key of the same shape) when a name
//     says lock; or the function compares the value it read with the
//     token it then writes with a TTL and backs off when they differ (a
//     lease taken or renewed: lockid.TokenWrite). A key whose every delete
//     runs only with an error set after the write is a retry marker (a
//     dedupe key), not a lock, and is not reported.
//   - The write must run only when the GET found nothing: a condition on
//     the GET's reply (the client's nil reply, its error being set, its
//     value empty) is known at the write (guard.Facts), or the write
//     follows an if-else chain whose branch for a missing key falls
//     through while another branch leaves. A write queued in MULTI/EXEC
//     inside WATCH (an optimistic transaction) is correct and silent; one
//     queued in a plain pipeline inside WATCH (go-redis Tx.Pipelined) is
//     not guarded by the WATCH and is reported, with the client's advice to
//     queue it in the transaction (the lease then stays correct as it is).
//   - The fix (go-redis) is offered only for the plain shapes: the GET's
//     error read in a statement of its own (err := rdb.Get(…).Err(), _,
//     err := …Result()) or in place in the test, the write a statement the
//     fix can delete, and every later use of the error either a test the
//     rewrite can map (missing → acquired, found → busy, failed → failed)
//     or a use where the key is known to have been there or the command
//     to have failed. A write with no TTL gets no fix: the TTL is a
//     decision (LV103).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/guard"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV107",
	Name:  "checkthenset",
	Title: "lock taken by GET, then a plain SET when the key was missing",
	Why: `Reading the key with GET (or testing it) and writing it with a plain SET when
nothing was there takes the lock in two commands. Two processes can both
read "missing" before either writes; both then SET, the second overwrites
the first, and each goes on as the holder. A TTL on the SET does not help:
the race is between the read and the write. Inside WATCH the SET is safe
only in MULTI/EXEC: go-redis' Tx.Pipelined sends a plain pipeline, which
the WATCH does not guard. Only locks are reported: the key is released
after the write (a DEL of it, a release helper, an Unlock counterpart, a
compare-and-delete script), or the function compares the value it read
with the token it writes and backs off when they differ (a lease). A cache
filled on a miss, a session written, a default stored when missing have the
same shape and are not locks.`,
	Fix: `Take the lock with one command that sets the key only when it is missing,
with the TTL: SetNX(ctx, key, token, ttl) or SetArgs with Mode "NX" and TTL
(go-redis), Do("SET", key, token, "NX", "PX", ms) (redigo),
B().Set().Key(key).Value(token).Nx().PxMilliseconds(ms) (rueidis), and
branch on its outcome: acquired, busy (someone else holds it) and failed.
The suggested fix (go-redis) replaces the GET by SetNX with the SET's key,
value and TTL, turns the tests of the GET's reply into tests of the
outcome (missing becomes acquired, found becomes busy, an error stays an
error) and deletes the SET. It is offered when the GET's reply is read in
a statement of its own or in place in the test and the SET carries a TTL;
with no TTL, choose one (LV103). A lease read inside WATCH and written in
a plain pipeline (go-redis Tx.Pipelined) is fixed by queuing the write in
MULTI/EXEC instead (TxPipelined): EXEC then fails when another process
wrote the key after the WATCH.`,
	Bad: `if err := rdb.Get(ctx, key).Err(); err != redis.Nil {
	return false, err // held (err == nil) or failed
}
if err := rdb.Set(ctx, key, token, 30*time.Second).Err(); err != nil {
	return false, err
}
return true, nil`,
	Good: `acquired, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()
if err != nil {
	return false, err
}
return acquired, nil`,
	Since:    "v0.2.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-367", "CWE-667"},
}

// Analyzer is LV107 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV107 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, run)
}

func run(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
	var locks *lockid.Locks
	for _, f := range res.Funcs {
		for _, w := range f.Ops {
			if w.Kind != redisops.Write || !w.Overwrites || w.Probe || len(w.Keys) != 1 || w.Value == nil {
				continue // not a plain SET of one key
			}
			if w.Scope.InWatch && w.Scope.Kind == redisops.Tx {
				continue // queued in MULTI/EXEC after WATCH: EXEC fails if the key changed
			}
			gf, gcur, ok := guardSite(f, w)
			if !ok {
				continue
			}
			g := missingGet(pass.TypesInfo, gf, gcur, w)
			if g == nil {
				continue
			}
			if locks == nil {
				locks = lockid.New(pass, res)
			}
			if !claims(pass, locks, w) {
				continue
			}
			reportClaim(pass, r, f, g, w)
		}
	}
}

// guardSite is where the conditions that guard w are read: w's own
// function at w, or, for w queued in a pipeline's callback, the function
// that opens the pipeline at that call (the callback runs during it).
func guardSite(f *redisops.Func, w *redisops.Op) (*redisops.Func, inspector.Cursor, bool) {
	if w.Scope.Kind == redisops.Direct {
		return f, w.Cursor, true
	}
	call, outer, ok := f.Batched()
	if !ok {
		return nil, inspector.Cursor{}, false // queued in a batch of its own: no reply read in between
	}
	for cur := w.Cursor; cur.Node() != nil; cur = cur.Parent() {
		if cur.Node() == call {
			return outer, cur, true
		}
	}
	return nil, inspector.Cursor{}, false
}

// missingGet finds the GET of w's key, sent on its own before the node at
// cur in gf, whose reply says that the key was missing wherever w runs.
func missingGet(info *types.Info, gf *redisops.Func, cur inspector.Cursor, w *redisops.Op) *redisops.Op {
	wk := w.KeyForm()
	for _, g := range gf.OpsOn(wk) {
		if g.Kind != redisops.Get || g.Scope.Kind != redisops.Direct || g.Call.Pos() >= cur.Node().Pos() || !keyid.Same(g.KeyForm(), wk) {
			continue
		}
		for _, ft := range guard.Facts(info, cur, gf.Node, g.Call.Pos()) {
			if g.AbsenceTest(info, ft.Cond).Missing(ft.True) {
				return g
			}
		}
		if chainMissing(info, g, cur, gf.Node) {
			return g
		}
	}
	return nil
}

// chainMissing reports whether the node at cur follows, in an enclosing
// block, an if-else chain after g that decides on g's reply: the branch
// taken when the key was missing falls through to cur, and another
// branch leaves the block (the key held by another, an error):
//
//	if errors.Is(err, redis.Nil) {
//		// not taken yet
//	} else if err != nil {
//		return err
//	} else if v != token {
//		return nil
//	}
//	rdb.Set(ctx, key, token, ttl)
func chainMissing(info *types.Info, g *redisops.Op, cur inspector.Cursor, stop ast.Node) bool {
	child := cur
	for p := cur.Parent(); p.Node() != nil && child.Node() != stop; child, p = p, p.Parent() {
		switch n := p.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.BlockStmt:
			for _, s := range n.List {
				if s == child.Node() {
					break
				}
				ifs, ok := s.(*ast.IfStmt)
				if !ok || ifs.Else == nil || ifs.Pos() < g.Call.End() {
					continue
				}
				missing, leave := false, false
				for x := ifs; x != nil; x, _ = x.Else.(*ast.IfStmt) {
					if g.AbsenceTest(info, x.Cond).Missing(true) && !leaves(x.Body) {
						missing = true
					}
					if leaves(x.Body) {
						leave = true
					}
				}
				if missing && leave {
					return true
				}
			}
		}
	}
	return false
}

// leaves reports whether b always leaves the enclosing block.
func leaves(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// claims reports whether the package treats w's key as a lock it holds
// (see the decisions at the top of this file).
func claims(pass *analysis.Pass, locks *lockid.Locks, w *redisops.Op) bool {
	info := pass.TypesInfo
	var held, marker int
	for _, rel := range locks.Releases(w) {
		if astx.InTest(pass.Fset, rel.Op.Call.Pos()) && !astx.InTest(pass.Fset, w.Call.Pos()) {
			continue // a test's cleanup says nothing of the code under test
		}
		switch {
		case rel.Checked, rel.Evidence == lockid.ViaHelper, rel.Evidence == lockid.Counterpart:
		case rel.Evidence == lockid.SameFunc:
			if rel.Op.Kind == redisops.Delete && onError(info, rel.Op, w) {
				marker++
				continue
			}
		case rel.Evidence == lockid.SameShape && (lockid.Named(info, w) || lockid.Named(info, rel.Op)):
		default:
			continue
		}
		held++
	}
	if held > 0 {
		return true
	}
	if marker > 0 {
		return false // deleted only when the work failed: a retry marker
	}
	// A lease: the value read is compared with the token written, and the
	// write runs only when they are equal (or the key was missing).
	if c := guard.OwnerCompare(info, w); c != nil && locks.TokenWrite(w, w.Key(), c.Token) != nil {
		return true
	}
	return false
}

// onError reports whether the delete d runs only with an error set since
// w, in the same function.
func onError(info *types.Info, d, w *redisops.Op) bool {
	for _, f := range guard.Facts(info, d.Cursor, d.Func.Node, w.Call.Pos()) {
		if f.ErrorSet(info) {
			return true
		}
	}
	return false
}

func reportClaim(pass *analysis.Pass, r *report.Reporter, f *redisops.Func, g, w *redisops.Op) {
	key := fixes.Text(pass.Fset, w.Key())
	how := "claim it with one SET NX with the TTL"
	if s := w.Advice(redisops.AdviseInTx); s != "" {
		how = s // queued in a pipeline inside WATCH: the transaction is the fix
	}
	msg := fmt.Sprintf("%s of %s after a GET found it missing: two processes can both find it missing and both take the lock; %s", w.Method, key, how)
	d := analysis.Diagnostic{
		Pos:     w.Call.Pos(),
		End:     w.Call.End(),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: g.Call.Pos(), End: g.Call.End(), Message: "key read here, in its own round trip"}},
	}
	if fix, ok := claimFix(pass, f, g, w); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else if how != "claim it with one SET NX with the TTL" {
		d.Message += " (no fix: the transaction is written by hand)"
	} else {
		d.Message += " (no fix: the GET, its test and the SET are not in a form the fix rewrites)"
	}
	r.Report(d)
}

// okName is the name the fix gives the acquire's outcome.
const okName = "acquired"

// claimFix replaces the GET by one SET NX with w's key, value and TTL,
// maps the tests of the GET's reply to the outcome of the SET NX, and
// deletes w (see the decisions at the top of this file).
func claimFix(pass *analysis.Pass, f *redisops.Func, g, w *redisops.Op) (analysis.SuggestedFix, bool) {
	info := pass.TypesInfo
	none := analysis.SuggestedFix{}
	if g.Func != f || w.Scope.Kind != redisops.Direct {
		return none, false
	}
	ct, ok := w.Claim(pass)
	if !ok {
		return none, false
	}
	for _, e := range []ast.Expr{w.Recv, w.Keys[0], w.Value, w.TTL, w.Call.Args[0]} {
		if !fixes.InScopeAt(info, pass.Pkg, e, g.Call.Pos()) || assignedBetween(info, f, e, g.Call.End(), w.Call.Pos()) {
			return none, false
		}
	}
	wstmt, ok := fixes.Removable(info, w.Cursor)
	if !ok || wstmt.Pos() <= g.Call.Pos() && g.Call.End() <= wstmt.End() ||
		fixes.Orphans(f, info, f.Body, wstmt.Pos(), wstmt.End(), w.Recv, w.Keys[0], w.Value, w.TTL, w.Call.Args[0]) {
		return none, false
	}
	inRemoved := func(n ast.Node) bool { return wstmt.Pos() <= n.Pos() && n.End() <= wstmt.End() }
	stmt, rcur, ok := g.ReadStmt(info)
	if !ok {
		return none, false
	}
	var edits []analysis.TextEdit
	if stmt == nil {
		// Read in place: the test around the accessor becomes the
		// outcome of the SET NX.
		t := rcur.Parent()
		if c, isCall := t.Node().(*ast.CallExpr); isCall && len(c.Args) > 0 && c.Args[0] == rcur.Node() {
			// errors.Is(rdb.Get(…).Err(), redis.Nil), rueidis.IsRedisNil(…)
		} else if _, isBin := t.Node().(*ast.BinaryExpr); !isBin {
			return none, false
		}
		test := t.Node().(ast.Expr)
		if inRemoved(test) {
			return none, false
		}
		switch g.AbsenceTest(info, test) {
		case redisops.AbsentIfTrue:
			edits = append(edits, fixes.Replace(test, ct.Bool))
		case redisops.AbsentIfFalse:
			edits = append(edits, fixes.Replace(test, "!"+ct.Bool))
		default:
			return none, false
		}
		edits = append(edits, fixes.DeleteStmt(pass, wstmt))
		return analysis.SuggestedFix{Message: "Take the lock with one SET NX and delete the SET", TextEdits: edits}, true
	}
	as, ok := stmt.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) == 0 || len(as.Lhs) > 2 {
		return none, false
	}
	errID, _ := as.Lhs[len(as.Lhs)-1].(*ast.Ident)
	if errID == nil || errID.Name == "_" || len(as.Lhs) == 2 && !isBlank(as.Lhs[0]) {
		return none, false
	}
	if errV, _ := info.Defs[errID].(*types.Var); errV == nil || !types.Identical(errV.Type(), types.Universe.Lookup("error").Type()) {
		return none, false
	}
	file := fileOf(pass, g.Call.Pos())
	if file == nil || fixes.LookupAt(pass, file, okName, g.Call.Pos()) != nil || fixes.LookupAt(pass, file, okName, w.Call.Pos()) != nil {
		return none, false
	}
	uses, _, ok := g.ReplyUses(info)
	if !ok {
		return none, false
	}
	var fcur inspector.Cursor
	for c := range g.Cursor.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		fcur = c
		break
	}
	used, errKept := false, false
	for _, u := range uses {
		if inRemoved(u) {
			continue
		}
		cur, ok := fcur.FindNode(u)
		if !ok {
			return none, false
		}
		test := cur.Parent()
		if c, isCall := test.Node().(*ast.CallExpr); isCall && !errorsIsOrTest(g, info, c) {
			test = cur // passed on: a use of the value
		}
		kind := redisops.NoAbsence
		if e, isExpr := test.Node().(ast.Expr); isExpr {
			kind = g.AbsenceTest(info, e)
		}
		known := knownFound(info, g, test, f)
		switch kind {
		case redisops.AbsentIfTrue:
			edits, used = append(edits, fixes.Replace(test.Node(), okName)), true
		case redisops.AbsentIfFalse:
			edits, used = append(edits, fixes.Replace(test.Node(), "!"+okName)), true
		case redisops.FoundIfTrue:
			errKept = true
			if !known {
				edits, used = append(edits, fixes.Replace(test.Node(), paren(test, fixes.Text(pass.Fset, test.Node())+" && !"+okName))), true
			}
		case redisops.FoundIfFalse:
			errKept = true
			if !known {
				edits, used = append(edits, fixes.Replace(test.Node(), paren(test, fixes.Text(pass.Fset, test.Node())+" || "+okName))), true
			}
		default:
			if !known {
				return none, false // the error's value where the key may have been missing
			}
			errKept = true
		}
	}
	if !used {
		return none, false // nothing reads the outcome: the claim would decide nothing
	}
	read := fmt.Sprintf("%s, %s := %s", okName, errID.Name, ct.Pair)
	if !errKept {
		// Only the missing key was tested: the outcome is the bool,
		// false on an error as well.
		read = fmt.Sprintf("%s := %s", okName, ct.Bool)
	}
	edits = append(edits,
		analysis.TextEdit{Pos: as.Pos(), End: as.End(), NewText: []byte(read)},
		fixes.DeleteStmt(pass, wstmt))
	return analysis.SuggestedFix{Message: "Take the lock with one SET NX and delete the SET", TextEdits: edits}, true
}

// errorsIsOrTest reports whether c is a call that tests g's reply
// (errors.Is, the client's nil-reply predicate).
func errorsIsOrTest(g *redisops.Op, info *types.Info, c *ast.CallExpr) bool {
	return g.AbsenceTest(info, c) != redisops.NoAbsence
}

// knownFound reports whether, at the node at cur, a condition known there
// says exactly that g's key was not missing (found, or the command
// failed): there the SET NX's outcome cannot be "acquired" either.
func knownFound(info *types.Info, g *redisops.Op, cur inspector.Cursor, f *redisops.Func) bool {
	for _, ft := range guard.Facts(info, cur, f.Node, g.Call.Pos()) {
		if ft.Cond.Pos() <= cur.Node().Pos() && cur.Node().End() <= ft.Cond.End() {
			continue // the test itself
		}
		if missing, ok := g.AbsenceTest(info, ft.Cond).Exact(ft.True); ok && !missing {
			return true
		}
	}
	return false
}

// paren wraps text in parentheses unless the expression at cur stands
// alone (an if condition, a statement, an assignment's value).
func paren(cur inspector.Cursor, text string) string {
	switch cur.Parent().Node().(type) {
	case *ast.IfStmt, *ast.AssignStmt, *ast.ReturnStmt, *ast.ParenExpr, *ast.ExprStmt:
		return text
	}
	return "(" + text + ")"
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

func fileOf(pass *analysis.Pass, pos token.Pos) *ast.File {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// assignedBetween reports whether a variable of e is assigned between
// from and to.
func assignedBetween(info *types.Info, f *redisops.Func, e ast.Expr, from, to token.Pos) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && astx.AssignedBetween(info, f.Body, v, from, to) {
				found = true
			}
		}
		return !found
	})
	return found
}
