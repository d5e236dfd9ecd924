// Package setnxexpire defines LV101: a lock taken with no TTL and given one
// by a separate EXPIRE.
package setnxexpire

import (
	"fmt"
	"go/constant"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV101",
	Name:  "setnxexpire",
	Title: "lock acquired without a TTL and expired in a second command",
	Why: `SETNX (or SetNX with a zero TTL, SET NX without EX/PX, GETSET) followed by
EXPIRE on the same key takes two round trips. A process that dies between
them (a crash, an OOM kill, a rolling restart) leaves the key with no TTL:
the lock is never released and every later caller waits forever.`,
	Fix: `Acquire and set the TTL in one command: SetNX(ctx, key, token, ttl), or
SetArgs with Mode "NX" and TTL. The suggested fix moves the EXPIRE's TTL into
the acquire and deletes the EXPIRE; it is offered only when the EXPIRE's
result is not used for anything else.`,
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
	return &analysis.Analyzer{
		Name:       Rule.Name,
		Doc:        Rule.Doc(),
		URL:        Rule.URL(),
		Requires:   []*analysis.Analyzer{ops},
		ResultType: report.ResultType,
		Run: func(pass *analysis.Pass) (any, error) {
			r := report.New(pass, Rule, cfg)
			run(pass, pass.ResultOf[ops].(*redisops.Result), r)
			return r.Done(), nil
		},
	}
}

func run(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
	for _, f := range res.Funcs {
		for _, e := range f.Ops {
			if e.Kind != redisops.Expire || e.Scope.Kind != redisops.Direct || e.TTL == nil || e.Key() == nil || deletes(pass, e) {
				continue
			}
			for _, a := range f.Ops {
				if (a.Kind != redisops.Acquire && a.Kind != redisops.GetSet) || !a.NoTTL || a.Scope.Kind != redisops.Direct ||
					a.Call.Pos() >= e.Call.Pos() && a.Call.Pos() < e.Call.End() ||
					!keyid.Same(pass.TypesInfo, f.Body, a.Key(), e.Key()) ||
					!f.Reachable(a.Call.Pos(), e.Call.Pos()) {
					continue
				}
				reportPair(pass, r, f, a, e)
				break
			}
		}
	}
}

// deletes reports whether the expire has a constant TTL ≤ 0, which deletes
// the key rather than setting a TTL (that is LV104's finding).
func deletes(pass *analysis.Pass, e *redisops.Op) bool {
	tv, ok := pass.TypesInfo.Types[e.TTL]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) <= 0
}

func reportPair(pass *analysis.Pass, r *report.Reporter, f *redisops.Func, a, e *redisops.Op) {
	key := fixes.Text(pass.Fset, a.Key())
	var msg string
	if a.Kind == redisops.GetSet {
		msg = fmt.Sprintf("%s after %s: %s clears the TTL of %s, and a crash before %s leaves the lock with no TTL, held forever; take over with one SET that carries the TTL",
			e.Method, a.Method, a.Method, key, e.Method)
	} else if a.TTLUnit == redisops.NoUnit {
		// The acquire has no TTL parameter (SETNX, INCR, a wrapper).
		msg = fmt.Sprintf("%s after %s acquired %s without a TTL: a crash between the two round trips leaves the lock with no TTL, held forever; take the lock with one command that sets the TTL too (SET key token NX PX ttl)",
			e.Method, a.Method, key)
	} else {
		msg = fmt.Sprintf("%s after %s acquired %s without a TTL: a crash between the two round trips leaves the lock with no TTL, held forever; pass the TTL to %s",
			e.Method, a.Method, key, a.Method)
	}
	d := analysis.Diagnostic{
		Pos:     e.Call.Pos(),
		End:     e.Call.End(),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: a.Call.Pos(), End: a.Call.End(), Message: "lock acquired here without a TTL"}},
	}
	if fix, ok := moveTTL(pass, f, a, e); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	r.Report(d)
}

// moveTTL builds the fix: the EXPIRE's TTL goes into the acquire, and the
// EXPIRE statement is deleted. It fails rather than produce code that does
// not build or behaves differently in other ways.
func moveTTL(pass *analysis.Pass, f *redisops.Func, a, e *redisops.Op) (analysis.SuggestedFix, bool) {
	if a.Kind != redisops.Acquire || !fixes.InScopeAt(pass.TypesInfo, pass.Pkg, e.TTL, a.Call.Pos()) {
		return analysis.SuggestedFix{}, false
	}
	edits, ok := a.WithTTL(pass, e, fixes.Text(pass.Fset, e.TTL))
	if !ok {
		return analysis.SuggestedFix{}, false
	}
	stmt, ok := fixes.Removable(pass.TypesInfo, e.Cursor)
	if !ok || stmt.Pos() <= a.Call.Pos() && a.Call.End() <= stmt.End() ||
		fixes.Orphans(pass.TypesInfo, f.Body, stmt.Pos(), stmt.End(), e.TTL) {
		return analysis.SuggestedFix{}, false
	}
	edits = append(edits, fixes.DeleteStmt(pass, stmt))
	return analysis.SuggestedFix{
		Message:   fmt.Sprintf("Pass the TTL to %s and delete the %s", a.Method, e.Method),
		TextEdits: edits,
	}, true
}
