package noexpire

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV103",
	Name:  "noexpire",
	Title: "lock acquired without a TTL and never expired",
	Why: `A lock taken with SETNX, SetNX with a zero TTL or redis.KeepTTL, or SET NX
without EX/PX has no expiry, and nothing else in the package gives it one. It
is released only by the code that deletes it: a holder that crashes, is
OOM-killed or is redeployed between the acquire and the release leaves the key
in Redis for good, and every later caller finds the lock busy forever. Only
keys that the package releases (DEL/UNLINK or a compare-and-delete script)
are reported; a set-once marker that is never deleted is not a lock.`,
	Fix: `Give the acquire a TTL: SetNX(ctx, key, token, ttl), or SetArgs with Mode
"NX" and TTL. There is no automatic fix because the TTL is a decision: take
the p99 duration of the guarded work and multiply it by 3 to 5, and give the
work its own timeout (a context deadline) below the TTL, so that a slow holder
stops before its lock can expire under it. Work that can outlive any fixed TTL
needs renewal (a compare-and-pexpire script) or a lock library that renews.
When the lock is released by a plain DEL, the message says so: today that
DEL is harmless (the lock cannot expire under its holder), but once the TTL
is added it deletes the next holder's lock whenever a holder outlives its
TTL (LV201), so make the release a compare-and-delete of the holder's
random token in the same change.
Other clients: redigo Do("SET", key, token, "NX", "PX", ms); rueidis
B().Set().Key(key).Value(token).Nx().PxMilliseconds(ms); gomemcache
Add(&memcache.Item{…, Expiration: seconds}).`,
	Bad: `ok, err := rdb.SetNX(ctx, key, token, 0).Result()
if err != nil || !ok {
	return err
}
defer unlock(ctx, rdb, key, token)`,
	Good: `ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()
if err != nil || !ok {
	return err
}
defer unlock(ctx, rdb, key, token)`,
	Since:    "v0.1.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-667", "CWE-833"},
}

// Analyzer is LV103 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV103 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, run)
}

func run(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
	var locks *lockid.Locks
	for _, a := range res.Ops {
		if a.Kind != redisops.Acquire || !a.NoTTL || a.Key() == nil || a.Func == nil || inTest(pass, a) || a.InHelper() {
			continue
		}
		if locks == nil {
			locks = lockid.New(pass, res)
		}
		rel, ok := release(pass, locks, a)
		if !ok || expired(pass, res, locks, a) || locks.Role(a) != lockid.RoleLock {
			continue
		}
		related := analysis.RelatedInformation{Pos: rel.Op.Call.Pos(), End: rel.Op.Call.End(), Message: "lock released here"}
		if rel.Call != nil {
			related = analysis.RelatedInformation{Pos: rel.Call.Pos(), End: rel.Call.End(), Message: "lock released through this call"}
		}
		if !rel.Checked {
			related.Message += ", without an owner check"
		}
		how, advice := "with no TTL", a.Advice(redisops.AdviseTTL)
		rels := []analysis.RelatedInformation{related}
		if a.TTLField != nil {
			// SetNX(ctx, m.key, v, m.ttl) with m.ttl never set: a TTL of 0.
			advice = "set it where the lock is made"
			how = fmt.Sprintf("with TTL field %s never set (0)", a.TTLField.Name())
			if a.TTLZeroAt != nil {
				how = fmt.Sprintf("with TTL field %s only set to 0", a.TTLField.Name())
				rels = append(rels, analysis.RelatedInformation{Pos: a.TTLZeroAt.Pos(), End: a.TTLZeroAt.End(), Message: "TTL set to 0 here"})
			}
		}
		r.Report(analysis.Diagnostic{
			Pos: a.Call.Pos(),
			End: a.Call.End(),
			Message: fmt.Sprintf("lock %s is acquired by %s %s and nothing expires it: a dead holder keeps it forever; %s%s",
				fixes.Text(pass.Fset, a.Key()), a.Method, how, advice, ownerCheck(pass, a, rel)),
			Related: rels,
		})
	}
}

// ownerCheck is what the message adds when the lock is released without an
// owner check: a lock with no TTL cannot expire under its holder, so its
// bare DEL is safe today (LV201 is silent), but the TTL this finding asks
// for makes it delete the next holder's lock. The two are fixed together.
func ownerCheck(pass *analysis.Pass, a *redisops.Op, rel lockid.Release) string {
	if rel.Checked {
		return ""
	}
	if constval.Known(pass.TypesInfo, a.Value) {
		return fmt.Sprintf("; then its %s must check a random token (LV201, LV204)", rel.Op.Method)
	}
	return fmt.Sprintf("; then its %s must check the owner (LV201)", rel.Op.Method)
}

// release finds the evidence that a takes a lock: an operation that later
// releases its key. A DEL of a key of the same shape in another function
// counts only when the code names it a lock (a cache entry filled with
// SETNX and invalidated elsewhere is not one); a compare-and-delete script
// always counts.
func release(pass *analysis.Pass, locks *lockid.Locks, a *redisops.Op) (lockid.Release, bool) {
	var best lockid.Release
	rank := func(r lockid.Release) int {
		switch {
		case r.Evidence == lockid.SameFunc:
			return 4
		case r.Evidence == lockid.ViaHelper, r.Evidence == lockid.Counterpart:
			return 3
		case r.Checked:
			return 2
		case lockid.Named(pass.TypesInfo, a) || lockid.Named(pass.TypesInfo, r.Op):
			return 1
		}
		return 0
	}
	br := 0
	for _, r := range locks.Releases(a) {
		if inTest(pass, r.Op) {
			continue // fixture cleanup, not a release
		}
		if n := rank(r); n > br {
			best, br = r, n
		}
	}
	return best, br > 0
}

// inTest reports whether op is in a _test.go file: tests seed and clean
// up lock keys as fixtures.
func inTest(pass *analysis.Pass, op *redisops.Op) bool {
	return astx.InTest(pass.Fset, op.Call.Pos())
}

// expired reports whether anything in the package may give a's key a TTL:
// an EXPIRE of it (LV101 reports the non-atomic pair), an acquire or a
// write that sets a TTL, or a script that expires it or that lockvet
// cannot read.
func expired(pass *analysis.Pass, res *redisops.Result, locks *lockid.Locks, a *redisops.Op) bool {
	for _, e := range locks.Candidates(a) {
		if e == a || !setsTTL(pass, e) || ownExpire(locks, a, e) {
			continue
		}
		for _, k := range e.Keys {
			if ev, _ := locks.Match(a, e, k); ev != 0 {
				return true
			}
		}
	}
	return false
}

// ownExpire reports whether e, an EXPIRE in another function than a, is
// the second step of an acquire of the same key earlier in its own
// function (INCR then EXPIRE in IsLockedTTL): it expires the keys that
// function takes, not those a takes.
func ownExpire(locks *lockid.Locks, a, e *redisops.Op) bool {
	if e.Kind != redisops.Expire || e.Func == a.Func || e.Key() == nil {
		return false
	}
	lk := locks.Of(e, e.Key())
	return lk != nil && lk.Evidence == lockid.SameFunc && lk.Acquire != a
}

func setsTTL(pass *analysis.Pass, op *redisops.Op) bool {
	switch op.Kind {
	case redisops.Expire:
		return true
	case redisops.Acquire:
		return !op.NoTTL
	case redisops.Write:
		if op.TTL == nil {
			return false
		}
		return !op.NonPositiveTTL()
	case redisops.Script:
		if op.ScriptSrc == "" {
			return true
		}
		switch lua.Classify(op.ScriptSrc).Kind {
		case lua.CompareAndDelete, lua.UncheckedDelete:
			return false
		}
		return true
	}
	return false
}
