package checkthendel

// Decisions where the rule leaves room:
//
//   - The shape alone is not evidence: a one-time code (an SMS or e-mail
//     verification code, a password-reset token) is read, compared with
//     the user's input and deleted in exactly this way, and it is not a
//     lock. The key must be a lock key by lockid's evidence (the same the
//     other release checks ask for: acquired in the function, a key of the
//     same shape acquired in the package, passed by a caller that acquired
//     it, or built like a counterpart acquire helper builds it), or, when
//     the compared value is not a constant, the key or the function must
//     be named like a lock (unlock, releaseLock, "lock:"+id): a token
//     compared before a delete in a function called Unlock is an owner
//     check whatever acquired it. When the value compared with is a
//     constant (`== "1"`), only lockid's evidence counts, and the message
//     points to LV204 (no holder can tell its lock from another's). A lease
//     is a lock too: the function writes the key with the token it compares
//     and a TTL (acquire or extend) and deletes it after the compare
//     (lockid's TokenWrite), whatever it is named.
//   - A DEL queued in a pipeline's callback is guarded by the compare
//     around the call that opens the pipeline (guard.OwnerCompare); inside
//     Watch that pipeline is not the transaction unless it is one (go-redis'
//     Tx.Pipelined sends its commands outside MULTI/EXEC; TxPipelined is
//     the transaction), and is reported.
//   - Silent when the delete is queued in a transaction inside Watch (WATCH
//     key, GET, MULTI, DEL, EXEC): EXEC fails if the key changed after the
//     GET, so the race is closed. A DEL sent directly inside the Watch
//     callback is not in the transaction and is reported.
//   - The GET must be sent on its own (not queued in a pipeline, whose
//     replies are empty until Exec) and must be in the delete's function.
//   - An owner check by prefix (strings.HasPrefix of the GET's value with
//     a prefix that is no constant, in place or in a function of the same
//     file whose body is only that return, its prefix made of package
//     names) is a compare (guard.Compare.Prefix): the owner is a process
//     (host and pid), by the code's choice. The fix is the prefix script
//     (lua.UnlockPrefixSrc); a constant prefix is every holder's and is no
//     owner check.
//   - The fix replaces the whole if statement only for the simple shape
//     `if rdb.Get(ctx, k).Val() == token { <statement with the DEL> }`;
//     with the value in a variable, or other code around, there is no fix.

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/guard"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV202",
	Name:  "checkthendel",
	Title: "lock released by GET, compare, then DEL in separate round trips",
	Why: `Reading the lock with GET, comparing its value with the owner's token, and
then sending DEL is two commands, whether the DEL is written there or made
by a helper the code calls with the key (reported at the helper's call, with
no fix). Between them the lock can expire and
another process can acquire it; the DEL then deletes that process's lock,
and a third process can take it while the second still works. The window is
small but real under load, GC pauses and network delays, and it is exactly
what the token was meant to rule out. Only lock keys are reported: a key the
package acquires with SET NX (in the same function, or a key built the same
way elsewhere), a lease that the same function writes with the compared
token and a TTL, or, when the compared value is a token rather than a
constant, a key or function named like a lock. A one-time code (an SMS or
e-mail verification code) read, compared with the user's input and deleted
has the same shape and is not a lock. Inside WATCH the DEL is safe only in
MULTI/EXEC: go-redis' Tx.Pipelined and Tx.Pipeline send it as a plain
pipeline, which the WATCH does not guard, and are reported. A compared
value that is a constant is the same for every holder: the lock needs a
random token too (LV204).`,
	Fix: `Compare and delete in one step on the server: a Lua compare-and-delete
script (redis.NewScript), or, on Redis 8.4 and later with a go-redis that
has it, DelExArgs with Mode "IFEQ". WATCH key, GET, then DEL inside
MULTI/EXEC (Watch with TxPipelined) is also correct. The suggested fix
replaces an if statement of the form if rdb.Get(ctx, key).Val() == token {
rdb.Del(ctx, key) } by a run of the script (declared once per package, or an
equivalent one reused); configured for Redis 8.4+, it offers DelExArgs
first. In the other shapes (the GET's reply kept in a variable, its error
handled first, the DEL after an early return on a mismatch) it replaces the
DEL alone by the script with the compared token, and the GET and compare
before it stay as a pre-check. An owner check by prefix (the owner is a
process: strings.HasPrefix(v, prefix), in place or in a one-line predicate
of the package, the prefix no constant) becomes a script that deletes only
while the value starts with the prefix. memcached has no scripts: with gomemcache, Get the item, compare its Value
with the token, and CompareAndSwap it with Expiration -1 (it fails if the
item changed after the Get). lockvet reports a gomemcache Get/compare/Delete without a
fix, because that rewrite returns errors (ErrCASConflict) Delete never did.`,
	Bad: `if rdb.Get(ctx, key).Val() == token {
	rdb.Del(ctx, key)
}`,
	Good: `var unlockScript = redis.NewScript(` + "`" + `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end` + "`" + `)

unlockScript.Run(ctx, rdb, []string{key}, token)`,
	Since:    "v0.1.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-367", "CWE-667"},
}

// Analyzer is LV202 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV202 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, func(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
		run(pass, res, cfg, r)
	})
}

const (
	fixScript = "Compare and delete in one step (compare-and-delete script)"
	fixDelEx  = "Compare and delete in one step (DELEX IFEQ, Redis 8.4+)"
	fixPrefix = "Compare the owner's prefix and delete in one step (script)"
)

func run(pass *analysis.Pass, res *redisops.Result, cfg *lvconfig.Config, r *report.Reporter) {
	info := pass.TypesInfo
	var locks *lockid.Locks
	for _, d := range res.Ops {
		if d.Kind != redisops.Delete || d.Scope.InWatch && d.Scope.Kind == redisops.Tx {
			continue
		}
		if locks == nil {
			locks = lockid.New(pass, res)
		}
		if notLock(locks, d) {
			continue
		}
		if d.Via != nil {
			reportVia(pass, locks, r, d)
			continue
		}
		if lk := locks.Of(d, d.Key()); lk != nil && guard.Retried(info, d, lk.Acquire) {
			continue // retried until it deletes something: LV201's finding
		}
		c := guard.OwnerCompare(info, d)
		if c == nil {
			reportHelper(pass, res, locks, r, d)
			continue
		}
		if c.Get.Scope.Kind != redisops.Direct {
			continue
		}
		tv, ok := info.Types[c.Token]
		constToken := ok && tv.Value != nil
		if !hasLockKey(locks, d) && (constToken || !lockid.Named(info, d)) && locks.TokenWrite(d, c.Get.Key(), c.Token) == nil {
			continue
		}
		key := fixes.Text(pass.Fset, c.Get.Key())
		how := "compare and delete in one step"
		if s := d.Advice(redisops.AdviseRelease); s != "" {
			how = s
		}
		if s := d.Advice(redisops.AdviseInTx); s != "" {
			how = s
		}
		cmp := "compare"
		if c.Prefix {
			cmp = "and prefix compare"
		}
		msg := fmt.Sprintf("%s of %s after a separate GET %s can delete another holder's lock; %s", d.Method, key, cmp, how)
		if constToken {
			msg += fmt.Sprintf("; %s is shared by every holder (LV204)", fixes.Text(pass.Fset, c.Token))
		}
		diag := analysis.Diagnostic{
			Pos:     d.Call.Pos(),
			End:     d.Call.End(),
			Message: msg,
			Related: []analysis.RelatedInformation{{Pos: c.Get.Call.Pos(), End: c.Get.Call.End(), Message: "value read here, in its own round trip"}},
		}
		if !constToken {
			diag.SuggestedFixes = suggest(pass, cfg, d, c)
			if len(diag.SuggestedFixes) == 0 {
				// The delete itself cannot be rewritten (an interface
				// without Eval): say so.
				why := d.ReleaseWhy(pass)
				if why == "" {
					why = "the GET, compare and DEL are not in a form the fix rewrites"
				}
				diag.Message += " (no fix: " + why + ")"
			}
		} else {
			diag.Message += " (no fix: a compare with a shared value checks no owner)"
		}
		r.Report(diag)
	}
}

// reportHelper reports the calls of the helper holding the delete d (a
// function that deletes the key it is passed) that run after a GET of
// that key compared its value in the caller: the same check-then-delete,
// with the DEL one call away. No fix: the rewrite spans two functions.
func reportHelper(pass *analysis.Pass, res *redisops.Result, locks *lockid.Locks, r *report.Reporter, d *redisops.Op) {
	info := pass.TypesInfo
	decl, ok := d.Func.Node.(*ast.FuncDecl)
	if !ok || d.Scope.Kind != redisops.Direct {
		return
	}
	fn, ok := info.Defs[decl.Name].(*types.Func)
	if !ok {
		return
	}
	for _, call := range locks.CallsOf(fn) {
		c := guard.HelperCompare(info, res, d, call)
		if c == nil || c.Get.Scope.Kind != redisops.Direct {
			continue
		}
		tv, ok := info.Types[c.Token]
		constToken := ok && tv.Value != nil
		if !hasLockKey(locks, d) && locks.Of(c.Get, c.Get.Key()) == nil && (constToken || !lockid.Named(info, c.Get)) {
			continue
		}
		msg := fmt.Sprintf("%s deletes %s (%s) after a separate GET compare, so it can delete another holder's lock; compare and delete in one step",
			fixes.Text(pass.Fset, call.Fun), fixes.Text(pass.Fset, c.Get.Key()), d.Method)
		if constToken {
			msg += fmt.Sprintf("; %s is shared by every holder (LV204) (no fix: a compare with a shared value checks no owner)", fixes.Text(pass.Fset, c.Token))
		} else {
			msg += fmt.Sprintf(" (no fix: the DEL is in %s)", fixes.Text(pass.Fset, call.Fun))
		}
		r.Report(analysis.Diagnostic{
			Pos:     call.Pos(),
			End:     call.End(),
			Message: msg,
			Related: []analysis.RelatedInformation{
				{Pos: c.Get.Call.Pos(), End: c.Get.Call.End(), Message: "value read here, in its own round trip"},
				{Pos: d.Call.Pos(), End: d.Call.End(), Message: "key deleted here"},
			},
		})
	}
}

// reportVia reports the call d of a release helper that compares the
// key's value with a GET and deletes it with a separate DEL, when the
// helper's Redis calls are reported nowhere else (a helper of another
// package that its package does not pair with an acquire: Op.InHelper)
// and the key is a lock key where it is called. No fix: the rewrite is
// in the helper.
func reportVia(pass *analysis.Pass, locks *lockid.Locks, r *report.Reporter, d *redisops.Op) {
	if d.Via.Form != redisops.CheckThenDel || d.InHelper() || d.Scope.Kind != redisops.Direct || d.Key() == nil {
		return
	}
	lk := locks.Of(d, d.Key())
	if lk == nil {
		return
	}
	a := lk.Acquire
	msg := fmt.Sprintf("%s deletes lock key %s (%s at %s) after a separate GET compare",
		d.Via.Name, fixes.Text(pass.Fset, d.Key()), d.Via.Method, d.Via.Where)
	acquired := "lock acquired here"
	if a.Via != nil {
		acquired += fmt.Sprintf(", by %s (%s at %s)", a.Via.Name, a.Via.Method, a.Via.Where)
	}
	msg += fmt.Sprintf(", so it can delete another holder's lock; compare and delete in one step inside it (no fix: the DEL is in %s, in another package)", d.Via.Name)
	r.Report(analysis.Diagnostic{
		Pos:     d.Call.Pos(),
		End:     d.Call.End(),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: a.Call.Pos(), End: a.Call.End(), Message: acquired}},
	})
}

// notLock reports whether a key d deletes is acquired as a counter or a
// retry marker (lockid.Role): no holder's lock to compare against.
func notLock(locks *lockid.Locks, d *redisops.Op) bool {
	for _, k := range d.Keys {
		if lk := locks.Of(d, k); lk != nil && locks.Role(lk.Acquire) != lockid.RoleLock {
			return true
		}
	}
	return false
}

func hasLockKey(locks *lockid.Locks, d *redisops.Op) bool {
	for _, k := range d.Keys {
		if locks.Of(d, k) != nil {
			return true
		}
	}
	return false
}

// suggest builds the fixes for the simple shape
//
//	if rdb.Get(ctx, key).Val() == token {
//		<one statement holding the DEL>
//	}
//
// the statement is kept, with the DEL replaced by an owner-checked
// release, and the if around it goes.
func suggest(pass *analysis.Pass, cfg *lvconfig.Config, d *redisops.Op, c *guard.Compare) []analysis.SuggestedFix {
	if d.Func == nil {
		return nil
	}
	// if rdb.Get(ctx, key).Val() == token { rdb.Del(ctx, key) } loses the
	// if; in every other shape (the reply kept in a variable, its error
	// handled first, the DEL after an early return on a mismatch) only the
	// DEL changes, and the GET and the compare before it stay as a
	// pre-check: the delete itself compares.
	unwrap, ok := unwrapInline(pass, d, c)
	if !ok {
		if !fixes.InScopeAt(pass.TypesInfo, pass.Pkg, c.Token, d.Call.Pos()) || tokenChanged(pass, d, c) {
			return nil
		}
	}
	var out []analysis.SuggestedFix
	for _, rel := range d.Releases(pass, fixes.Text(pass.Fset, c.Token), redisops.ReleaseOptions{DelEx: cfg.RedisAtLeast(8, 4), Prefix: c.Prefix}) {
		m := fixScript
		switch {
		case rel.Kind == redisops.ReleaseDelEx:
			m = fixDelEx
		case c.Prefix:
			m = fixPrefix
		}
		out = append(out, analysis.SuggestedFix{Message: m, TextEdits: slices.Concat(unwrap, rel.Edits)})
	}
	return out
}

// unwrapInline returns the edits that remove the if around the delete d
// when the if's condition is the compare c of the GET's reply read in
// place, and its body the delete alone.
func unwrapInline(pass *analysis.Pass, d *redisops.Op, c *guard.Compare) ([]analysis.TextEdit, bool) {
	ifs := c.Fact.If
	if !c.Inline || !c.Fact.True || ifs.Init != nil || ifs.Else != nil || ast.Unparen(ifs.Cond) != c.Cmp ||
		len(ifs.Body.List) != 1 {
		return nil, false
	}
	stmt := ifs.Body.List[0]
	if d.Call.Pos() < stmt.Pos() || d.Call.End() > stmt.End() {
		return nil, false
	}
	// Unwrapping `if … { return … }` would make what follows the if
	// unreachable (go vet reports it); only the last statement may.
	switch stmt.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		if !lastInBlock(d.Func.Body, ifs) {
			return nil, false
		}
	}
	// Nothing declared outside may lose its last use with the condition.
	if fixes.Orphans(d.Func, pass.TypesInfo, d.Func.Body, ifs.Cond.Pos(), ifs.Cond.End(), c.Token) {
		return nil, false
	}
	return unwrapIf(pass, ifs, stmt)
}

// tokenChanged reports whether a variable the compared token is read from
// is assigned between the compare and the delete.
func tokenChanged(pass *analysis.Pass, d *redisops.Op, c *guard.Compare) bool {
	changed := false
	ast.Inspect(c.Token, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && astx.AssignedBetween(pass.TypesInfo, d.Func.Body, v, c.Token.End(), d.Call.Pos()) {
				changed = true
			}
		}
		return !changed
	})
	return changed
}

// lastInBlock reports whether s is the last statement of the statement list
// that holds it in body.
func lastInBlock(body *ast.BlockStmt, s ast.Stmt) bool {
	last := false
	ast.Inspect(body, func(n ast.Node) bool {
		list := astx.StmtList(n)
		if len(list) > 0 && list[len(list)-1] == s {
			last = true
		}
		return !last
	})
	return last
}

// unwrapIf returns the edits that remove `if cond {` before stmt and `}`
// after it, keeping a comment that ends stmt's line.
func unwrapIf(pass *analysis.Pass, ifs *ast.IfStmt, stmt ast.Stmt) ([]analysis.TextEdit, bool) {
	tf := pass.Fset.File(ifs.Pos())
	if tf == nil {
		return nil, false
	}
	src, err := pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return nil, false
	}
	end := stmt.End()
	if nl := bytes.IndexByte(src[tf.Offset(end):tf.Offset(ifs.End())], '\n'); nl >= 0 {
		end = tf.Pos(tf.Offset(end) + nl)
	}
	return []analysis.TextEdit{
		{Pos: ifs.Pos(), End: stmt.Pos()},
		{Pos: end, End: ifs.End()},
	}, true
}
