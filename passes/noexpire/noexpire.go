package noexpire

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
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
The message ends with the reason there is no fix ("no fix: no TTL for this
lock in scope"). When the lock is released by a plain DEL, the message says
so, and LV201 reports that DEL: once the TTL is added it deletes the next
holder's lock whenever a holder outlives its TTL, so make the release a
compare-and-delete of the holder's random token in the same change.
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
		if a.Kind != redisops.Acquire || !a.NoTTL || a.Key() == nil || a.Func == nil {
			continue
		}
		if locks == nil {
			locks = lockid.New(pass, res)
		}
		// Released by the package, never expired, a lock (lockid.Forever).
		releases := locks.Forever(a)
		if len(releases) == 0 {
			continue
		}
		rel := releases[0]
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
			Message: fmt.Sprintf("lock %s is acquired by %s %s and nothing expires it: a dead holder keeps it forever; %s%s (no fix: %s)",
				fixes.Text(pass.Fset, a.Key()), a.Method, how, advice, ownerCheck(pass, a, rel), noFix(a)),
			Related: rels,
		})
	}
}

// noFix says in a few words why the finding has no fix: the TTL is the
// author's decision, and lockvet does not invent one. A TTL field that is
// never set (or only to 0) has no value to use either.
func noFix(a *redisops.Op) string {
	if a.TTLField != nil {
		return "the TTL field has no value to use"
	}
	return "no TTL for this lock in scope"
}

// ownerCheck is what the message adds when the lock is released without an
// owner check: a lock with no TTL cannot expire under its holder, so its
// bare DEL cannot take over another holder's lock today, but the TTL this
// finding asks for makes it delete the next holder's lock (LV201 reports
// that DEL, saying so). The two are fixed together.
func ownerCheck(pass *analysis.Pass, a *redisops.Op, rel lockid.Release) string {
	if rel.Checked {
		return ""
	}
	if constval.Known(pass.TypesInfo, a.Value) {
		return fmt.Sprintf("; then its %s must check a random token (LV201, LV204)", rel.Op.Method)
	}
	return fmt.Sprintf("; then its %s must check the owner (LV201)", rel.Op.Method)
}
