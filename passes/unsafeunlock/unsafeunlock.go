package unsafeunlock

// Decisions where the rule leaves room:
//
//   - A key is a lock key only by lockid's evidence (acquired in the same
//     function, same shape acquired elsewhere in the package, or passed to
//     a same-package helper by a function that acquired it). Names such as
//     "lock:" are not evidence, except for the glob case below.
//   - A call of an inferred release helper of this package (Unlock(ctx,
//     key) whose body DELs the key) is a delete op, but the finding is
//     at the DEL inside the helper, where a fix can go, and is made once
//     however many callers there are (Op.InHelper). A helper of another
//     package that its own package cannot pair with an acquire is
//     reported at the call, naming the helper and where its DEL is.
//   - Deletes in _test.go files are fixture cleanup, not releases: silent.
//   - Deletes that LV202 reports (a GET of the key compared with a value
//     guards the delete) are left to LV202: they check the owner, racily.
//     A delete retried in a for loop until it deletes something (the loop
//     or an if that leaves it reads the count it replies; guard.Retried)
//     is reported here, with its own message, whatever compare precedes
//     the loop; LV202 leaves it alone.
//   - The GET's reply is read as redisops reads it (Op.Reply): in place,
//     into a variable, by a typed reader (v, _ := ….Int64()), or through
//     the command value kept in a variable (cmd.Val() after cmd :=
//     rdb.Get(…)).
//   - A delete queued in a transaction inside Watch is the optimistic
//     compare-and-delete and is silent.
//   - An acquire that sets no TTL (SETNX with no EXPIRE of the key in its
//     function) cannot expire under its holder. Its bare DEL is reported
//     only when the lock is one LV103 reports (lockid.Forever: nothing in
//     the package expires it, the package releases it, it is a lock, not
//     a marker or a counter), and only when this DEL is one of the
//     releases that show it, with its own message: the TTL LV103 asks for
//     makes the DEL delete another holder's lock, and today a release by
//     a caller that did not get the lock (an Unlock after a failed or
//     timed-out acquire) deletes the holder's. An overwrite (plain SET) of
//     such a lock stays silent. Any other acquire with no TTL (a key
//     something else expires, a marker) is silent as before.
//   - A delete that cannot run after the acquire in the same function
//     (`if … { acquire } else { delete }`) releases nothing it took: silent.
//   - A delete that runs only when the acquire in the same function failed
//     (`if !ok { rdb.Del(…) }`) is not the release of a lock this code
//     holds: it is a deliberate takeover of someone else's lock (usually
//     after checking for a missing TTL), not this rule's mistake: silent.
//   - A plain SET of a lock key taken in another function is a release by
//     overwrite unless it writes the value the acquire writes, or its
//     function is named to take the lock (setDeviceLock): both force the
//     lock to hold others off before the work, and release nothing.
//   - When every delete of the key in the acquiring function runs only with
//     an error set (`if err != nil { rdb.Del(…) }`), the key is a marker
//     kept on success and removed to allow a retry (idempotency keys,
//     at-most-once-per-TTL throttles): silent.
//   - A DEL of a constant glob ("lock:*", with *, ? or […]) deletes only a
//     key of that literal name: DEL does not expand patterns. It is
//     reported when the pattern fits the shape of a key the package
//     acquires, or, with no such acquire, when it is a *-pattern that
//     mentions "lock" (a pattern is not a key, so its text is the only
//     intent there is). A ?- or […]-pattern that an acquired key could be
//     literally is taken for that key.
//
// The fix replaces the delete with a compare-and-delete only when the
// acquire's value is a variable or field that is in scope and unchanged at
// the delete (for a Lock/Unlock pair, the same field of the receiver); for
// a constant value there is no owner to compare and the message points to
// LV204. A value that is no string (time.Now(), a number) and is not at
// hand gets LV204's token fix; a string value not at hand may be the
// caller's token, and is left with a hint. A retried delete whose token is
// not at hand compares with what the owner check before the loop compared
// with (guard.OwnerCompare, a prefix included), when that is in scope and
// unchanged.

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
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/guard"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/internal/tokenfix"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV201",
	Name:  "unsafeunlock",
	Title: "lock released with DEL/UNLINK without checking that it is still ours",
	Why: `A lock with a TTL can expire while its holder still works (a GC pause, a
slow call, a network partition). Another process then acquires it. When the
first holder finishes and releases with a plain DEL (or UNLINK), it deletes
the other process's lock, and a third process can acquire it while the
second still works: two holders at once, the failure the lock was meant to
prevent. Releasing by overwriting the key with a plain SET (SET key "done",
SET key "") has the same outcome and is reported with its own message; a SET
with NX, or with XX and GET whose old value is compared, is not this, nor is
the holder writing its own token again. A DEL of a pattern ("lock:*") is a
different mistake with the same outcome: DEL does not expand patterns, so
nothing is released. A DEL that follows a GET-compare, in place or through a
helper, is LV202's finding, except a DEL retried in a loop until it deletes
something, reported here with its own message: the compare is not made
again before the retries, and once the lock has expired a retry deletes the
next holder's lock. A lock with no TTL that nothing expires (LV103's
finding) cannot expire under its holder, but its bare DEL is reported too:
once the lock gets its TTL the DEL deletes another holder's lock, and today
a release by a caller that did not get the lock deletes the holder's. A
SET NX of a constant key with a TTL of at most 1 ms, deleted at once, is a start-up probe that the connection can write,
not a lock, and is not reported here or by LV105.`,
	Fix: `Release by deleting the key only while it still holds this holder's token,
in one step: a Lua compare-and-delete script (redis.NewScript), or, on Redis
8.4 and later with a go-redis that has it, DelExArgs with Mode "IFEQ". The
suggested fix declares the script once per package (or reuses an equivalent
one) and runs it in place of the DEL, when the token the lock was acquired
with is at hand; configured for Redis 8.4+, it offers DelExArgs first.
Through the project's own Redis interface (or an alias of the client's
that no file imports by name), the fix calls its Eval with the script's
source in a package constant. An interface without Eval gets the
client's (or (any, error) over plain values), and so does every type of
the module whose values are converted to it, running the script on the
go-redis client it wraps; when another package can reach the interface,
only the lockvet command, which loads the whole module, offers it. When a
type that meets it wraps no client (a test's fake), there is no fix and
the message names the type. The token can be a field of the receiver that only
the literal building it sets (a per-process owner id): the release
compares with its own receiver's field. A lock struct whose Lock keeps
no token (the key in a field, a random or constant value written and
forgotten) gets a token field: Lock stores its value there (a random
token in place of a constant) and Unlock compares with it. A value that
is no token (the time, a number) and that the release cannot read gets
the same fix as a constant (LV204): a random token in its place, kept
in a variable or, for a Lock/Unlock pair, returned by Lock and taken by
Unlock. So does a value that is a part of the lock's own key (SET NX of
"lock:"+id with the value id): every holder of the key writes it, so
comparing with it checks no owner. A lock whose value is a constant cannot be checked: give it a random token
first (LV204). memcached has no scripts: with gomemcache, Get the item, compare its Value
with the token, and CompareAndSwap it with Expiration -1 (it fails if the
item changed after the Get). lockvet reports a gomemcache Delete without a
fix, because that rewrite returns errors (ErrCASConflict) Delete never did.
When the release is in a helper that has no token at hand, the message
names it: have the acquire (or its helper) return the token it set, pass
it to the release helper, and delete there only while the key still holds
it. A DEL retried in a loop after one owner check, with no token of the acquire
at hand, compares in the script with what that check compared with (the
prefix script when the check was by prefix, strings.HasPrefix). A DEL of a
pattern releases nothing: find the keys with SCAN MATCH and
release each one with an owner check. An overwrite (a plain SET) also lets
a third process take the lock while the second still works.`,
	Bad: `if ok, _ := rdb.SetNX(ctx, key, token, ttl).Result(); !ok {
	return ErrLocked
}
defer rdb.Del(ctx, key)`,
	Good: `var unlockScript = redis.NewScript(` + "`" + `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end` + "`" + `)

if ok, _ := rdb.SetNX(ctx, key, token, ttl).Result(); !ok {
	return ErrLocked
}
defer unlockScript.Run(ctx, rdb, []string{key}, token)`,
	Since:    "v0.1.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-667"},
}

// Analyzer is LV201 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV201 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, func(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
		run(pass, res, cfg, r)
	})
}

// foreverWhy is why a bare delete of a lock with no TTL (LV103's) matters.
const foreverWhy = "once the lock has its TTL (LV103), it can delete another holder's lock, and a release by a caller that did not get the lock deletes the holder's today"

// Fix messages, shared by every finding so that fixes of one kind can be
// applied together.
const (
	fixScript = "Delete only while the key holds the lock's token (compare-and-delete script)"
	fixDelEx  = "Delete only while the key holds the lock's token (DELEX IFEQ, Redis 8.4+)"
	fixPrefix = "Delete only while the key's value starts with the owner's prefix (script)"
)

func run(pass *analysis.Pass, res *redisops.Result, cfg *lvconfig.Config, r *report.Reporter) {
	var locks *lockid.Locks
	for _, d := range res.Ops {
		overwrite := d.Kind == redisops.Write && d.Overwrites
		if d.Kind != redisops.Delete && !overwrite {
			continue // neither a delete nor a plain SET over the key
		}
		if d.Scope.InWatch && d.Scope.Kind == redisops.Tx {
			continue // inside WATCH … MULTI/EXEC: the transaction checks
		}
		if d.InHelper() {
			continue // reported at the helper's calls
		}
		if d.Via != nil && d.Via.Form == redisops.CheckThenDel {
			continue // GET, compare, DEL in a helper: LV202's
		}
		if astx.InTest(pass.Fset, d.Call.Pos()) {
			continue // a test's cleanup of its fixture
		}
		if locks == nil {
			locks = lockid.New(pass, res)
		}
		if !overwrite && reportGlob(pass, locks, r, d) {
			continue
		}
		var key ast.Expr
		var lk *lockid.Lock
		for _, k := range d.KeyArgs() {
			if lk = locks.Of(d, k); lk != nil {
				key = k
				break
			}
		}
		if lk != nil && lk.Evidence != lockid.SameFunc && !expires(pass, lk.Acquire) {
			lk = expiringAcquire(pass, locks, d, key, lk)
		}
		if lk == nil {
			continue
		}
		// A lock with no TTL that nothing expires (LV103's finding):
		// its bare DEL is reported, saying why it matters before and
		// after the TTL is added.
		forever := false
		if !expires(pass, lk.Acquire) {
			if overwrite {
				continue
			}
			if key, lk = foreverLock(locks, d, lk.Acquire); lk == nil {
				continue
			}
			forever = true
		}
		// A retry loop of the DEL is this check's finding even after a
		// compare: the compare is not made again before each retry.
		retried := !overwrite && !forever && guard.Retried(pass.TypesInfo, d, lk.Acquire)
		if !retried && guard.OwnerCompare(pass.TypesInfo, d) != nil {
			continue
		}
		if lk.Evidence == lockid.ViaHelper && lk.Call != nil && guard.HelperCompare(pass.TypesInfo, res, d, lk.Call) != nil {
			continue // GET, compare, then this helper: LV202's finding
		}
		if lk.Evidence == lockid.SameFunc && (d.Func == lk.Acquire.Func && !d.Func.Reachable(lk.Acquire.Call.Pos(), d.Call.Pos()) ||
			afterFailedAcquire(pass, lk.Acquire, d)) {
			continue
		}
		if locks.Role(lk.Acquire) != lockid.RoleLock {
			continue // a counter or a retry marker: no holder's lock to delete
		}
		if overwrite {
			// In a function of its own named to take the lock, a plain SET
			// forces the lock (holds others off before the work); it
			// releases nothing.
			if lk.Evidence != lockid.SameFunc && lk.Evidence != lockid.ViaHelper && lockid.NamedToAcquire(d) {
				continue
			}
			reportOverwrite(pass, r, d, key, lk)
			continue
		}
		reportDelete(pass, res, cfg, r, d, key, lk, retried, forever)
	}
}

// foreverLock is, for a bare delete d of a key whose lock sets no TTL,
// the lock LV103 reports (lockid.Forever) that d releases, with the key
// of d that names it: first the lock of a, then any other the package
// takes. It is nil when d releases none.
func foreverLock(locks *lockid.Locks, d, a *redisops.Op) (ast.Expr, *lockid.Lock) {
	of := func(a *redisops.Op) (ast.Expr, *lockid.Lock) {
		for _, r := range locks.Forever(a) {
			if r.Op == d && !r.Checked {
				return r.Key, &lockid.Lock{Acquire: a, Evidence: r.Evidence, Call: r.Call, Store: r.Store}
			}
		}
		return nil, nil
	}
	if k, lk := of(a); lk != nil {
		return k, lk
	}
	for _, b := range locks.Acquires() {
		if b != a && b.NoTTL {
			if k, lk := of(b); lk != nil {
				return k, lk
			}
		}
	}
	return nil, nil
}

func reportDelete(pass *analysis.Pass, res *redisops.Result, cfg *lvconfig.Config, r *report.Reporter, d *redisops.Op, key ast.Expr, lk *lockid.Lock, retried, forever bool) {
	a := lk.Acquire
	keyText := fixes.Text(pass.Fset, key)
	var msg string
	constValue := constval.Known(pass.TypesInfo, a.Value)
	valueText := fixes.Text(pass.Fset, a.Value)
	if a.Value == nil && a.Via != nil && a.Via.ValueConst != "" {
		constValue, valueText = true, a.Via.ValueConst
	}
	// A value the key is built from (SetNX(prefix+id, id, ttl)): every
	// holder of the key writes it, so it is no token either, though
	// each key has its own. Only the acquire's own call is read: through
	// a helper, the caller's arguments are LV204's.
	keyPart := !constValue && tokenfix.KeyPart(a)
	// Through helpers, the message names them and where their Redis
	// calls are.
	head := fmt.Sprintf("%s of lock key %s does not check the owner", d.Method, keyText)
	if d.KeySlice != nil && key == d.KeySlice {
		head = fmt.Sprintf("%s of lock keys %s does not check the owner", d.Method, keyText) // a lock per element (Del(ctx, keys...))
	}
	if d.Via != nil {
		// The acquire's helper and where its Redis call is are in the
		// related information.
		head = fmt.Sprintf("%s deletes lock key %s with a bare %s (%s)", d.Via.Name, keyText, strings.ToUpper(d.Via.Method), d.Via.Where)
		if a.Via != nil {
			head += fmt.Sprintf(" after %s acquired it", a.Via.Name)
		}
	}
	how := ""
	switch {
	case forever && constValue:
		msg = fmt.Sprintf("%s, and every holder writes %s: %s (LV204)", head, valueText, foreverWhy)
	case forever:
		msg = head + ": " + foreverWhy
	}
	if constValue {
		if msg == "" {
			msg = fmt.Sprintf("%s, and every holder writes %s: it can delete another holder's lock (LV204)", head, valueText)
		}
	} else if keyPart {
		if msg == "" {
			msg = fmt.Sprintf("%s, and every holder writes %s, a part of the key, which tells no holder from another: it can delete another holder's lock", head, valueText)
		}
	} else {
		if msg == "" {
			msg = head + ", so after the TTL it can delete another holder's lock"
		}
		if retried && d.Via == nil {
			msg = fmt.Sprintf("%s of lock key %s is retried until it deletes something: after the TTL, a retry deletes the next holder's lock", d.Method, keyText)
		}
		if how = d.Advice(redisops.AdviseRelease); how == "" {
			how = "delete only while it holds the token"
		}
	}
	var related []analysis.RelatedInformation
	if lk.Evidence == lockid.ViaHelper {
		related = append(related, analysis.RelatedInformation{Pos: lk.Call.Pos(), End: lk.Call.End(), Message: "the lock key is passed here"})
	}
	if lk.Evidence == lockid.Stored && lk.Store != nil {
		related = append(related, analysis.RelatedInformation{Pos: lk.Store.Pos(), End: lk.Store.End(), Message: "the lock key is stored here"})
	}
	acquired := "lock acquired here"
	if a.Via != nil {
		acquired += fmt.Sprintf(", by %s (%s at %s)", a.Via.Name, a.Via.Method, a.Via.Where)
	}
	related = append(related, analysis.RelatedInformation{Pos: a.Call.Pos(), End: a.Call.End(), Message: acquired})
	diag := analysis.Diagnostic{Pos: d.Call.Pos(), End: d.Call.End(), Message: msg, Related: related}
	var noFix string // why a constant value gets no token fix
	if (constValue || keyPart) && (lk.Evidence == lockid.SameFunc || lk.Evidence == lockid.Counterpart || lk.Evidence == lockid.SameShape) {
		// A token made at the acquire and compared here (threaded
		// through the helpers' signatures when they are a pair).
		if p := tokenfix.For(pass, res, a, redisops.ReleaseOptions{DelEx: cfg.RedisAtLeast(8, 4)}, cfg.ModuleView()); p.OK {
			diag.SuggestedFixes = append(diag.SuggestedFixes, p.Fix)
		} else {
			noFix = p.Why
		}
	} else if constValue || keyPart {
		noFix = "acquire in another function"
	}
	if !constValue && !keyPart {
		tok, atHand := tokenAt(pass, res, lk, d, key)
		prefix := false
		if !atHand && retried {
			// The compare made once before the retries names the
			// owner: each retry compares with it, in one step.
			if c := guard.OwnerCompare(pass.TypesInfo, d); c != nil && fixes.InScopeAt(pass.TypesInfo, pass.Pkg, c.Token, d.Call.Pos()) &&
				!assignedIn(pass.TypesInfo, d.Func.Body, c.Token, c.Get.Call.End(), d.Call.Pos()) {
				tok, atHand, prefix = fixes.Text(pass.Fset, c.Token), true, c.Prefix
			}
		}
		if atHand {
			for _, rel := range d.Releases(pass, tok, redisops.ReleaseOptions{DelEx: cfg.RedisAtLeast(8, 4), Prefix: prefix}) {
				m := fixScript
				switch {
				case rel.Kind == redisops.ReleaseDelEx:
					m = fixDelEx
				case prefix:
					m = fixPrefix
				}
				diag.SuggestedFixes = append(diag.SuggestedFixes, analysis.SuggestedFix{Message: m, TextEdits: rel.Edits})
			}
			if len(diag.SuggestedFixes) == 0 {
				noFix = d.ReleaseWhy(pass)
			}
		} else if lk.Evidence == lockid.SameShape || lk.Evidence == lockid.Stored {
			// A lock struct whose Lock keeps no token: a field keeps it.
			if p := tokenfix.Field(pass, res, a, redisops.ReleaseOptions{DelEx: cfg.RedisAtLeast(8, 4)}); p.OK {
				diag.SuggestedFixes = append(diag.SuggestedFixes, p.Fix)
			}
		}
		if len(diag.SuggestedFixes) == 0 && noFix == "" && (lk.Evidence == lockid.SameFunc || lk.Evidence == lockid.Counterpart || lk.Evidence == lockid.SameShape) &&
			!valueParam(pass, a) && !tokenfix.StringValue(pass.TypesInfo, a.Value) {
			// A value that is no token (time.Now(), a counter) and is
			// not at hand at the release: a random token takes its place,
			// threaded to the release as for a constant. A string value
			// may be the caller's token: it is kept, and the hint says
			// how to bring it to the release.
			if p := tokenfix.For(pass, res, a, redisops.ReleaseOptions{DelEx: cfg.RedisAtLeast(8, 4)}, cfg.ModuleView()); p.OK {
				diag.SuggestedFixes = append(diag.SuggestedFixes, p.Fix)
			} else {
				noFix = p.Why
			}
		}
		if len(diag.SuggestedFixes) == 0 && noFix == "" && !atHand && a.Via == nil && lk.Evidence != lockid.ViaHelper && lk.Evidence != lockid.Stored && !valueParam(pass, a) {
			switch {
			case a.Value == nil:
				noFix = fmt.Sprintf("%s writes no value to compare with", a.Method)
			case lk.Evidence != lockid.SameFunc:
				noFix = fmt.Sprintf("the value %s is not kept for the release", valueText)
			}
		}
		// A hint that says why there is no fix takes the place of the
		// general remedy.
		if d.Via != nil && len(diag.SuggestedFixes) == 0 {
			// The DEL is in the helper, out of reach of a fix here.
			how = fmt.Sprintf("%s has no token: pass it the acquire's", d.Via.Name)
		} else if lk.Evidence == lockid.ViaHelper && a.Via != nil && len(diag.SuggestedFixes) == 0 {
			if rel := funcName(d); rel != "" {
				how = fmt.Sprintf("%s has no token: pass it the one %s set", rel, a.Via.Name)
			}
		} else if lk.Evidence == lockid.Stored && len(diag.SuggestedFixes) == 0 {
			// The lock value holds the key, not the token.
			if rel, acq := funcName(d), funcName(a); rel != "" && acq != "" {
				how = fmt.Sprintf("%s has no token: have %s store it with the key", rel, acq)
			}
			if noFix == "" {
				// Nor could the delete compare, were the token kept (an
				// interface without Eval that a fake meets).
				noFix = d.ReleaseWhy(pass)
			}
		} else if (lk.Evidence == lockid.Counterpart || lk.Evidence == lockid.SameShape) && len(diag.SuggestedFixes) == 0 && valueParam(pass, a) {
			// A release helper with no token at hand: the value is the
			// caller's, so the release must take it too.
			if rel, acq := funcName(d), funcName(a); rel != "" && acq != "" {
				how = fmt.Sprintf("%s has no token: pass it the %s given to %s", rel, valueText, acq)
				if noFix == "" {
					noFix = fmt.Sprintf("%s is the caller's, and %s does not take it", valueText, rel)
				}
			}
		}
		if len(diag.SuggestedFixes) == 0 && noFix == "" {
			noFix = noTokenWhy(pass, d, lk, valueText)
		}
	}
	if how != "" {
		diag.Message += "; " + how
	}
	if noFix != "" {
		diag.Message += " (no fix: " + noFix + ")"
	}
	r.Report(diag)
}

// noTokenWhy says why the bare delete d of lk's key, whose value is no
// constant, has no fix when nothing more specific is known: the DEL is in
// a helper, or the acquire's value is not at hand at d.
func noTokenWhy(pass *analysis.Pass, d *redisops.Op, lk *lockid.Lock, valueText string) string {
	a := lk.Acquire
	switch {
	case d.Via != nil:
		return fmt.Sprintf("the %s is in the helper %s at %s", d.Via.Method, d.Via.Name, d.Via.Where)
	case a.Value == nil && a.Via != nil:
		return fmt.Sprintf("the value %s writes is not at hand here", a.Via.Name)
	case a.Value == nil:
		return fmt.Sprintf("%s writes no value to compare with", a.Method)
	case lk.Evidence == lockid.Stored:
		return "what is stored with the key is not the token"
	}
	return fmt.Sprintf("the value %s is not at hand here", valueText)
}

// reportOverwrite reports a release by overwrite: a plain SET of the lock
// key after the work, which replaces whatever the key holds. A SET of the
// value the lock was acquired with (the holder writing its own token
// again) is a renewal, not this; LV203 is about renewals.
func reportOverwrite(pass *analysis.Pass, r *report.Reporter, d *redisops.Op, key ast.Expr, lk *lockid.Lock) {
	a := lk.Acquire
	if d.Value == nil || a.Value != nil && fixes.Text(pass.Fset, a.Value) == fixes.Text(pass.Fset, d.Value) {
		return
	}
	msg := fmt.Sprintf("%s overwrites lock key %s with %s without checking the owner, so after the TTL it can replace another holder's lock; delete it only while it holds the token (no fix: a compare-and-delete would not leave the value it writes)",
		d.Method, fixes.Text(pass.Fset, key), fixes.Text(pass.Fset, d.Value))
	var related []analysis.RelatedInformation
	if lk.Evidence == lockid.ViaHelper {
		related = append(related, analysis.RelatedInformation{Pos: lk.Call.Pos(), End: lk.Call.End(), Message: "the lock key is passed here"})
	}
	related = append(related, analysis.RelatedInformation{Pos: a.Call.Pos(), End: a.Call.End(), Message: "lock acquired here"})
	r.Report(analysis.Diagnostic{Pos: d.Call.Pos(), End: d.Call.End(), Message: msg, Related: related})
}

// expires reports whether the lock taken by a can expire under its holder:
// the acquire sets a TTL, or its function gives the key one.
func expires(pass *analysis.Pass, a *redisops.Op) bool {
	if !a.NoTTL {
		return true
	}
	for _, e := range a.Func.OpsOn(a.KeyForm()) {
		if e.Kind == redisops.Expire && e.Key() != nil && keyid.Same(a.KeyForm(), e.KeyForm()) {
			return true
		}
	}
	return false
}

// expiringAcquire is, for d's release of key in another function than the
// acquire of lk, which sets no TTL, another acquire of the key in the
// package whose lock can expire (IsLocked with no TTL, IsLockedTTL with
// an EXPIRE, one Unlock for both), with its evidence; lk when there is
// none.
func expiringAcquire(pass *analysis.Pass, locks *lockid.Locks, d *redisops.Op, key ast.Expr, lk *lockid.Lock) *lockid.Lock {
	for _, a := range locks.Acquires() {
		if a == lk.Acquire || a.Func == nil || a.Func == d.Func || !expires(pass, a) {
			continue
		}
		if ev, call := locks.Match(a, d, key); ev != 0 && ev != lockid.SameFunc {
			return &lockid.Lock{Acquire: a, Evidence: ev, Call: call}
		}
	}
	return lk
}

// afterFailedAcquire reports whether d, in a's function, runs only when
// the acquire a reported that it did not get the lock.
func afterFailedAcquire(pass *analysis.Pass, a, d *redisops.Op) bool {
	if d.Func != a.Func {
		return false
	}
	info := pass.TypesInfo
	inline, v := a.Reply(info)
	var t types.Type
	switch {
	case inline != nil:
		t = info.TypeOf(inline)
	case v != nil:
		t = v.Type()
	default:
		return false
	}
	if b, ok := t.Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return false
	}
	isFlag := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if inline != nil {
			return e == inline
		}
		id, ok := e.(*ast.Ident)
		return ok && info.Uses[id] == v && id.Pos() > a.Call.End() && !astx.AssignedBetween(info, a.Func.Body, v, a.Call.End(), id.Pos())
	}
	for _, f := range guard.Facts(info, d.Cursor, d.Func.Node, a.Call.End()) {
		if f.Is(info, isFlag, false) {
			return true
		}
	}
	return false
}

// tokenAt returns source text, valid at d, of the value the lock was
// acquired with, when that value is a variable or a field that d can
// still read unchanged.
func tokenAt(pass *analysis.Pass, res *redisops.Result, lk *lockid.Lock, d *redisops.Op, key ast.Expr) (string, bool) {
	info := pass.TypesInfo
	a := lk.Acquire
	v := ast.Unparen(a.Value)
	root, path, ok := chain(info, v)
	if !ok {
		return "", false
	}
	rootVar, ok := info.Uses[root].(*types.Var)
	if !ok {
		return "", false
	}
	pkgLevel := rootVar.Parent() == pass.Pkg.Scope() || rootVar.Pkg() != pass.Pkg
	switch lk.Evidence {
	case lockid.SameFunc:
		if !fixes.InScopeAt(info, pass.Pkg, v, d.Call.Pos()) {
			return "", false
		}
		// Unchanged from the acquire to the delete; a delete in a function
		// literal (a deferred or returned release) runs later, so the rest
		// of the acquiring function counts too.
		end := d.Call.Pos()
		if d.Func != a.Func {
			end = a.Func.Body.End()
		}
		if astx.AssignedBetween(info, a.Func.Body, rootVar, a.Call.End(), end) ||
			fieldAssigned(info, a.Func.Body, path, a.Call.End(), end) {
			return "", false
		}
		return fixes.Text(pass.Fset, v), true
	case lockid.Counterpart:
		return sameParam(pass, a, d, rootVar, path)
	case lockid.SameShape:
		if tok, ok := sameParam(pass, a, d, rootVar, path); ok {
			return tok, true
		}
		if pkgLevel && len(path) == 0 {
			return fixes.Text(pass.Fset, v), fixes.InScopeAt(info, pass.Pkg, v, d.Call.Pos())
		}
		// Lock/Unlock pair: the acquire's key and value are fields of the
		// same variable (the receiver); the delete's key is the same field
		// path of its own variable of the same type.
		aVar, dVar, ok := keyid.SameFields(a.KeyForm(), d.FormOf(key))
		if !ok || len(path) == 0 || aVar != rootVar || !types.Identical(dVar.Type(), rootVar.Type()) {
			return recvField(pass, res, a, d, rootVar, path)
		}
		text := dVar.Name()
		for _, s := range path {
			text += "." + s.Name
		}
		return text, true
	case lockid.Token:
		// A GETSET of the key writes the acquire's value again: a
		// package-level variable, or a field of the receiver that the
		// release's receiver has too.
		if pkgLevel && len(path) == 0 {
			return fixes.Text(pass.Fset, v), fixes.InScopeAt(info, pass.Pkg, v, d.Call.Pos())
		}
		return recvField(pass, res, a, d, rootVar, path)
	}
	return "", false
}

// recvField handles Lock/Unlock methods of one type whose value is a
// field of the receiver (l.owner, set when the value is built) and whose
// keys have the same shape but are no fields (l.key(name)): the release
// compares with the same field of its own receiver. The field must be
// written only in composite literals, so that it holds at the release what
// it held at the acquire.
func recvField(pass *analysis.Pass, res *redisops.Result, a, d *redisops.Op, root *types.Var, path []*ast.Ident) (string, bool) {
	info := pass.TypesInfo
	aRecv, ok := recvOf(info, a)
	if !ok || aRecv != root || len(path) == 0 {
		return "", false
	}
	dRecv, ok := recvOf(info, d)
	if !ok || dRecv.Name() == "_" || !types.Identical(deref(dRecv.Type()), deref(aRecv.Type())) ||
		astx.AssignedIn(info, d.Func.Body, dRecv) || astx.AssignedIn(info, a.Func.Body, aRecv) {
		return "", false
	}
	fields := map[*types.Var]bool{}
	for _, id := range path {
		f, ok := info.Uses[id].(*types.Var)
		if !ok || !f.IsField() {
			return "", false
		}
		fields[f.Origin()] = true
	}
	assigned := false
	astx.FieldWrites(info, res.Inspector, func(f *types.Var, _ ast.Expr, at ast.Node) {
		if !fields[f] {
			return
		}
		switch at.(type) {
		case *ast.KeyValueExpr:
		case ast.Stmt, *ast.UnaryExpr:
			assigned = true
		}
	})
	if assigned {
		return "", false
	}
	text := dRecv.Name()
	for _, s := range path {
		text += "." + s.Name
	}
	return text, true
}

// recvOf is the receiver of the method declaration holding o.
func recvOf(info *types.Info, o *redisops.Op) (*types.Var, bool) {
	decl, ok := o.Func.Node.(*ast.FuncDecl)
	if !ok || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return nil, false
	}
	v, ok := info.Defs[decl.Recv.List[0].Names[0]].(*types.Var)
	return v, ok
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// sameParam handles helper pairs such as Lock(ctx, key, token) /
// Unlock(ctx, key, token): the acquire's value is the parameter v of its
// function, and the release helper has a parameter of the same name and
// type; neither is assigned.
func sameParam(pass *analysis.Pass, a, d *redisops.Op, v *types.Var, path []*ast.Ident) (string, bool) {
	info := pass.TypesInfo
	if len(path) != 0 || !isParam(pass, a.Func, v) || astx.AssignedIn(info, a.Func.Body, v) {
		return "", false
	}
	decl, ok := d.Func.Node.(*ast.FuncDecl)
	if !ok || d.Func == a.Func {
		return "", false
	}
	for _, f := range decl.Type.Params.List {
		for _, n := range f.Names {
			if p, ok := info.Defs[n].(*types.Var); ok && n.Name == v.Name() && types.Identical(p.Type(), v.Type()) && !astx.AssignedIn(info, decl.Body, p) {
				return n.Name, true
			}
		}
	}
	return "", false
}

// isParam reports whether v is a parameter of f's function declaration.
func isParam(pass *analysis.Pass, f *redisops.Func, v *types.Var) bool {
	decl, ok := f.Node.(*ast.FuncDecl)
	if !ok {
		return false
	}
	for _, fl := range decl.Type.Params.List {
		for _, n := range fl.Names {
			if pass.TypesInfo.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// valueParam reports whether the acquire a writes a parameter of its
// function as the value: a token its caller chose.
func valueParam(pass *analysis.Pass, a *redisops.Op) bool {
	id, ok := ast.Unparen(a.Value).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	return ok && isParam(pass, a.Func, v)
}

// funcName is the name of the function declaration holding op, or "".
func funcName(op *redisops.Op) string {
	if decl, ok := op.Func.Node.(*ast.FuncDecl); ok {
		return decl.Name.Name
	}
	return ""
}

// chain splits x, x.f, x.f.g (field selections) into the root identifier
// and the selected field names. A qualified identifier pkg.V is its own
// root.
func chain(info *types.Info, e ast.Expr) (*ast.Ident, []*ast.Ident, bool) {
	var path []*ast.Ident
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x, path, true
		case *ast.SelectorExpr:
			sel, ok := info.Selections[x]
			if !ok {
				if _, isPkg := info.Uses[astx.IdentOf(x.X)].(*types.PkgName); isPkg && len(path) == 0 {
					return x.Sel, nil, true
				}
				return nil, nil, false
			}
			if sel.Kind() != types.FieldVal {
				return nil, nil, false
			}
			path = append([]*ast.Ident{x.Sel}, path...)
			e = ast.Unparen(x.X)
		default:
			return nil, nil, false
		}
	}
}

// assignedIn reports whether a variable e reads is assigned in body
// between from and to.
func assignedIn(info *types.Info, body ast.Node, e ast.Expr, from, to token.Pos) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && astx.AssignedBetween(info, body, v, from, to) {
				found = true
			}
		}
		return !found
	})
	return found
}

// fieldAssigned reports whether one of the fields in path is assigned in
// body between from and to.
func fieldAssigned(info *types.Info, body ast.Node, path []*ast.Ident, from, to token.Pos) bool {
	if len(path) == 0 {
		return false
	}
	fields := map[types.Object]bool{}
	for _, id := range path {
		fields[info.Uses[id]] = true
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		var lhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs = n.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{n.X}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				lhs = []ast.Expr{n.X}
			}
		}
		for _, l := range lhs {
			if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && fields[info.Uses[sel.Sel]] && sel.Pos() > from && sel.Pos() < to {
				found = true
			}
		}
		return !found
	})
	return found
}

// reportGlob reports a DEL of a constant glob pattern, which deletes only a
// key of that literal name. It returns true when it reported.
func reportGlob(pass *analysis.Pass, locks *lockid.Locks, r *report.Reporter, d *redisops.Op) bool {
	info := pass.TypesInfo
	for _, k := range d.Keys {
		sp := constval.String(info, k)
		if sp == nil {
			continue
		}
		s := *sp
		pat, ok := parseGlob(s)
		if !ok {
			continue
		}
		star := strings.Contains(s, "*")
		var match *redisops.Op
		literal := false
		for _, a := range locks.Acquires() {
			sk := skeleton(info, a.Key())
			if sk == nil {
				continue
			}
			if !star && overlaps(literalGlob(s), sk) {
				literal = true
				break
			}
			if match == nil && overlaps(pat, sk) {
				match = a
			}
		}
		if literal || match == nil && !(star && strings.Contains(strings.ToLower(s), "lock")) {
			continue
		}
		diag := analysis.Diagnostic{
			Pos: d.Call.Pos(),
			End: d.Call.End(),
			Message: fmt.Sprintf("%s does not expand patterns: it deletes only a key named exactly %s, and no lock is released; find the keys with SCAN MATCH (no fix: a pattern names no key whose token is at hand)",
				d.Method, fixes.Text(pass.Fset, k)),
		}
		if match != nil {
			diag.Related = []analysis.RelatedInformation{{Pos: match.Call.Pos(), End: match.Call.End(), Message: "a lock key this pattern was meant to match is acquired here"}}
		}
		r.Report(diag)
		return true
	}
	return false
}
