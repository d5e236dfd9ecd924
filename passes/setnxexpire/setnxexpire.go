package setnxexpire

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV101",
	Name:  "setnxexpire",
	Title: "lock acquired without a TTL and expired in a second command",
	Why: `SETNX (or SetNX with a zero TTL, SET NX without EX/PX, GETSET, which
clears the key's TTL) followed by EXPIRE on the same key takes two round trips. A process that dies between
them (a crash, an OOM kill, a rolling restart) leaves the key with no TTL:
the lock is never released and every later caller waits forever. INCR used
as a lock (only the caller whose reply is 1 goes on, however the reply is
compared: == 1, != 1, > 1, >= 2, a switch; and that caller deletes the
key, or a function named like a lock returns the comparison, IsLocked's
return n > 1, and its Unlock deletes the key) is the same acquire with no
TTL. A key
that is not a lock (a rate-limit window, a mark written once) is kept
forever the same way; when nothing in the code says the key is a lock (a
release of it, a lock-like name, a declared lock wrapper), the finding
speaks of the key.`,
	Fix: `Acquire and set the TTL in one command: SetNX(ctx, key, token, ttl), or
SetArgs with Mode "NX" and TTL. The suggested fix moves the EXPIRE's TTL into
the acquire and deletes the EXPIRE; it is offered only when the EXPIRE's
result is not used for anything else and the TTL's variables keep their
value between the two calls (a TTL clamped in between is not moved ahead
of the clamp). A GETSET takes no TTL: the fix runs one script that sets
the value and the TTL (PEXPIRE, in milliseconds) and replies the old value
or nil, as GETSET does, read through the same accessor (go-redis Text or
String, redigo's conversions), on every Redis version (SET key value GET
PX ms needs 6.2). Other clients: redigo Do("SET", key, token, "NX", "PX", ms); rueidis
B().Set().Key(key).Value(token).Nx().PxMilliseconds(ms); gomemcache
Add(&memcache.Item{…, Expiration: seconds}). A redigo or rueidis SETNX becomes
SET NX, whose reply is OK or nil instead of 1 or 0: the fix rewrites the
read too (the bool becomes err == nil and the nil reply is cleared; a redigo
value read alone, n, _ := redis.Int(…), becomes a redis.String read whose
tests, n == 1 or !ok, test for "OK"), and is offered only where the code
then reads the three outcomes (acquired, busy, error) exactly as before
(see docs/clients.md).`,
	Bad: `ok, err := rdb.SetNX(ctx, key, token, 0).Result()
if err != nil {
	return err
}
if ok {
	rdb.Expire(ctx, key, 30*time.Second)
}`,
	Good: `ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()
if err != nil {
	return err
}`,
	Since:    "v0.1.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-667"},
}

// Analyzer is LV101 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV101 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, run)
}

func run(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
	var locks *lockid.Locks // built for the first pair found
	var vars *redisops.ScriptVars
	for _, f := range res.Funcs {
		for _, e := range f.Ops {
			// A renew helper that fixes the TTL itself has no TTL at its
			// call, and sets one all the same.
			fixedTTL := e.TTL == nil && e.Via != nil && e.Via.TTLConst != ""
			if e.Kind != redisops.Expire || e.Scope.Kind != redisops.Direct {
				continue // not an EXPIRE sent on its own
			}
			if e.TTL == nil && !fixedTTL || e.Key() == nil || e.DeletesKey() {
				continue // no TTL or key to read, or an EXPIRE that deletes
			}
			for _, a := range f.OpsOn(e.KeyForm()) {
				if a.Kind != redisops.Acquire && a.Kind != redisops.GetSet || !a.NoTTL || a.Scope.Kind != redisops.Direct {
					continue // not a TTL-less claim sent on its own
				}
				if a.Call.Pos() >= e.Call.Pos() && a.Call.Pos() < e.Call.End() {
					continue // the claim is inside the EXPIRE's arguments
				}
				if !keyid.Same(a.KeyForm(), e.KeyForm()) || !f.Reachable(a.Call.Pos(), e.Call.Pos()) {
					continue // another key, or no path from the claim
				}
				if locks == nil {
					locks = lockid.New(pass, res)
				}
				if vars == nil {
					vars = redisops.NewScriptVars(pass, res)
				}
				reportPair(pass, r, vars, f, a, e, isLock(pass, locks, a))
				break
			}
		}
	}
}

// isLock reports whether the code gives evidence that a takes a lock: a
// release of its key outside tests, a lock-like name, or an acquire that
// takes a lock by definition (a declared lock wrapper), and nothing in
// the key's life says counter or marker (lockid.Role). Without it the
// key may be anything written once (a rate-limit window, a dedupe mark),
// and the finding speaks of the key, not of a lock.
func isLock(pass *analysis.Pass, locks *lockid.Locks, a *redisops.Op) bool {
	if locks.Role(a) != lockid.RoleLock {
		return false // a counter or a retry marker, whatever its name
	}
	if lockid.Named(pass.TypesInfo, a) {
		return true
	}
	if out, ok := a.Outcome(pass.TypesInfo); ok && out.IsLock {
		return true
	}
	for _, rel := range locks.Releases(a) {
		if !astx.InTest(pass.Fset, rel.Op.Call.Pos()) {
			return true // a test's cleanup of a fixture is no evidence
		}
	}
	return false
}

func reportPair(pass *analysis.Pass, r *report.Reporter, vars *redisops.ScriptVars, f *redisops.Func, a, e *redisops.Op, lock bool) {
	key := fixes.Text(pass.Fset, a.Key())
	// The words for a lock, and for a key that is not known to be one.
	acquired, held, related := "acquired", "the lock held forever", "lock acquired here without a TTL"
	if !lock {
		acquired, held, related = "wrote", "the key with no TTL", "key written here without a TTL"
	}
	var msg string
	if a.Kind == redisops.GetSet {
		msg = fmt.Sprintf("%s after %s, which clears the TTL of %s: a crash in between leaves %s; use one SET with the TTL",
			e.Method, a.Method, key, held)
	} else {
		msg = fmt.Sprintf("%s after %s %s %s without a TTL: a crash in between leaves %s; %s",
			e.Method, a.Method, acquired, key, held, a.Advice(redisops.AdviseTTL))
	}
	d := analysis.Diagnostic{
		Pos:     e.Call.Pos(),
		End:     e.Call.End(),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: a.Call.Pos(), End: a.Call.End(), Message: related}},
	}
	if fix, why, ok := moveTTL(pass, vars, f, a, e); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	} else {
		if why == "" {
			why = fmt.Sprintf("can't move the TTL into %s", a.Method)
		}
		d.Message += " (no fix: " + why + ")"
	}
	r.Report(d)
}

// moveTTL builds the fix: the EXPIRE's TTL goes into the acquire, and the
// EXPIRE statement is deleted. It fails rather than produce code that does
// not build or behaves differently in other ways, saying why when the
// reason is one a user can act on.
//
// A GETSET cannot take a TTL: it becomes a script that sets the value and
// the TTL in one step and replies the old value (redisops' GetSetTTL).
// The TTL is then set whenever the GETSET writes, also on the paths where
// the EXPIRE was not sent: GETSET clears the TTL of the key it writes on
// every path, so each of them left the key without one.
func moveTTL(pass *analysis.Pass, vars *redisops.ScriptVars, f *redisops.Func, a, e *redisops.Op) (analysis.SuggestedFix, string, bool) {
	switch {
	case a.Kind != redisops.Acquire && a.Kind != redisops.GetSet:
		return analysis.SuggestedFix{}, a.Method + " takes no TTL", false
	case e.TTL == nil:
		return analysis.SuggestedFix{}, fmt.Sprintf("the TTL is inside %s", e.Via.Name), false
	}
	// An INCR takes no TTL: the acquire would become SET NX, whose reply
	// (OK or nil) is no count where the code reads one.
	if a.Kind == redisops.Acquire && a.Value == nil && strings.HasPrefix(strings.ToUpper(a.Method), "INCR") {
		return analysis.SuggestedFix{}, fmt.Sprintf("%s takes no TTL, and SET NX replies no count", a.Method), false
	}
	if !fixes.InScopeAt(pass.TypesInfo, pass.Pkg, e.TTL, a.Call.Pos()) {
		return analysis.SuggestedFix{}, fmt.Sprintf("the TTL is computed after the %s", a.Method), false
	}
	if assignedBetween(pass, f, e.TTL, a.Call.End(), e.Call.Pos()) {
		return analysis.SuggestedFix{}, fmt.Sprintf("the TTL changes after the %s", a.Method), false
	}
	var edits []analysis.TextEdit
	var ok bool
	msg := fmt.Sprintf("Pass the TTL to %s and delete the %s", a.Method, e.Method)
	ttl := fixes.Text(pass.Fset, e.TTL)
	if a.Kind == redisops.GetSet {
		edits, ok = a.GetSetTTL(pass, vars, e)
		msg = fmt.Sprintf("Set the TTL in the same step as %s (one script) and delete the %s", a.Method, e.Method)
	} else {
		edits, ok = a.WithTTL(pass, e, ttl)
	}
	if !ok {
		if why := a.WithTTLWhy(pass, e, ttl); why != "" && a.Kind != redisops.GetSet {
			return analysis.SuggestedFix{}, why, false
		}
		return analysis.SuggestedFix{}, fmt.Sprintf("%s here cannot take the TTL", a.Method), false
	}
	stmt, ok := fixes.Removable(pass.TypesInfo, e.Cursor)
	if !ok || stmt.Pos() <= a.Call.Pos() && a.Call.End() <= stmt.End() ||
		fixes.Orphans(f, pass.TypesInfo, f.Body, stmt.Pos(), stmt.End(), e.TTL) {
		return analysis.SuggestedFix{}, fmt.Sprintf("the %s cannot be deleted alone", e.Method), false
	}
	edits, ok = fixes.WithDeletion(edits, fixes.DeleteStmt(pass, stmt))
	if !ok {
		return analysis.SuggestedFix{}, "the edits overlap", false
	}
	return analysis.SuggestedFix{Message: msg, TextEdits: edits}, "", true
}

// assignedBetween reports whether a variable of ttl is assigned between
// from and to: a TTL clamped after the acquire (if ttl < time.Second { ttl
// = time.Second }) has another value where the acquire is.
func assignedBetween(pass *analysis.Pass, f *redisops.Func, ttl ast.Expr, from, to token.Pos) bool {
	found := false
	ast.Inspect(ttl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && astx.AssignedBetween(pass.TypesInfo, f.Body, v, from, to) {
				found = true
			}
		}
		return !found
	})
	return found
}
