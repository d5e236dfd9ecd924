package acquireresult

// An acquire has three outcomes: acquired, busy (another process holds the
// key) and failed (the command did not run, or Redis answered an error).
// redisops says where the client reports each one (Outcome: the value, the
// error, the client's nil-reply error); this check follows them through the
// function and reports code that goes on as if it held the lock when it
// does not:
//
//   - the reply is discarded (for an acquire whose error alone tells
//     whether it took the lock, as with lock libraries: the error);
//   - only the error is read where busy is reported in the value (a SetNX
//     that returned false, nil is taken for acquired);
//   - only the busy error is handled where busy is reported as an error (a
//     timeout falls through as acquired);
//   - on some path, a busy or failed outcome reaches a `return true` of a
//     function that reports whether it acquired the lock (fail-open), a
//     failed one a `return nil` of a function that reports busy as an
//     error and hands the lock to its caller (fail-open), or either
//     reaches the release of the lock in the same function, made there or
//     by a helper, or deferred after the last test of the reply (the
//     critical section ran without the lock), or a call of the work the
//     function was handed (a parameter of type func(), func() error or
//     func(context.Context) error) that the acquired outcome reaches too
//     (RunExclusive(ctx, name, fn) falling through into fn).
//
// Each finding needs evidence that the key is a lock: the package releases
// it (lockid), the code names it one (lockid.Named), the call takes a
// lock by definition (redisops' Outcome.IsLock: a lock library's acquire,
// a declared acquire wrapper), or it writes a random token drawn for the
// acquisition with a TTL (lockid.FreshToken), which only an owner needs.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"sync"

	"golang.org/x/tools/go/analysis"

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
	ID:    "LV105",
	Name:  "acquireresult",
	Title: "lock acquire outcome misread",
	Why: `An acquire has three outcomes: acquired, busy (another process holds the
lock) and failed (a timeout, a lost connection, a server error). go-redis
reports a held key from SetNX as false with a nil error, and from SetArgs with
Mode "NX" as the redis.Nil error. Code that checks only SetNX's error, ignores
the reply, handles only redis.Nil, or reports "acquired" when the command
failed (returns true; returns a nil error from a helper whose busy is an
error; logs the error and falls through into the work and the release,
or into the function it was handed to run) runs the critical section
without the lock: two processes do the work at once, and during a Redis
outage every caller does. A random token written with NX and a TTL is
a lock whatever the function is called. Lock libraries report
both busy and failed as the error of their acquire; code that drops it has
the same bug. So has an INCR lock that drops INCR's error: a failed INCR
reads as the count 0, which IsLocked's n > 1 takes for "not locked".`,
	Fix: `Read both the value and the error and tell the three outcomes apart: an
error that is not the busy reply is a failure (return it, fail closed); a
false value or redis.Nil is busy (return "not acquired"). The suggested fix
adds the missing branch when the function's results say what to return
(what its bool answers is read from its name, IsLocked busy and Lock or
TryLock acquired, from a bool result's name, or from a return of true),
and turns a return of true that only a failed acquire reaches into a
return of false (with the error, when the function returns one). A lock
library's acquire whose error is dropped becomes if err := m.Lock(); err
!= nil { return …, err } (zero values and "not acquired" for the other
results); an INCR lock reads its error and answers for it as for a held
lock (err != nil || n > 1). Where the function's results do not say what
to return, the message says so ("no fix: …"). A reply
conversion that fails on the acquire's success reply (redigo's
redis.String on SETNX's 1) never sees the lock acquired: read the reply
with one that accepts it (a string for a status reply such as OK, an
integer for 1 or 0).`,
	Bad: `if err := rdb.SetNX(ctx, key, token, ttl).Err(); err != nil {
	return false, err
}
return true, nil`,
	Good: `if ok, err := rdb.SetNX(ctx, key, token, ttl).Result(); err != nil {
	return false, err
} else if !ok {
	return false, nil
}
return true, nil`,
	Since:    "v0.1.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-667", "CWE-252"},
}

// Analyzer is LV105 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV105 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, func(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
		(&checker{pass: pass, res: res, r: r}).run()
	})
}

type checker struct {
	pass  *analysis.Pass
	res   *redisops.Result
	r     *report.Reporter
	locks *lockid.Locks
	funcs map[*redisops.Func]*funcFacts
}

func (c *checker) run() {
	for _, a := range c.res.Ops {
		if a.Kind != redisops.Acquire || a.Scope.Kind != redisops.Direct || a.Func == nil || inTest(c.pass, a) {
			continue
		}
		out, ok := a.Outcome(c.pass.TypesInfo)
		if !ok || out.Read == redisops.ReadOther && out.Busy != redisops.BusyNever {
			continue
		}
		c.check(a, out)
	}
}

func (c *checker) check(a *redisops.Op, out redisops.Outcome) {
	if out.Busy == redisops.BusyCount {
		c.count(a, out) // count.go
		return
	}
	switch {
	case out.Read == redisops.ReadNone && out.Busy == redisops.ErrOnly:
		if rel, ok := c.lock(a, out); ok {
			fix, why := c.stopFix(a, out)
			c.report(a, out, rel, fix, noFix(fmt.Sprintf("the error of %s is discarded, and it is the only sign the lock was not taken; stop when it is not nil", a.Method), why))
		}
		return
	case out.Read == redisops.ReadNone:
		if rel, ok := c.lock(a, out); ok {
			c.report(a, out, rel, nil, fmt.Sprintf("the reply of %s is discarded, so the code runs without the lock when it is busy or failed; stop when the key was not set", a.Method))
		}
		return
	case out.Busy == redisops.BusyNever:
		if rel, ok := c.lock(a, out); ok {
			c.report(a, out, rel, nil, fmt.Sprintf("%s fails on the reply %s gives when it sets the key, so the lock is never acquired and the work never runs; use a conversion that accepts it", fixes.Text(c.pass.Fset, out.Accessor.Fun), a.Method))
		}
		return
	case busyInValue(out.Busy) && out.Read == redisops.ReadErr:
		if rel, ok := c.lock(a, out); ok {
			form, check := "false", "the bool"
			switch out.Busy {
			case redisops.BusyNil:
				form, check = "a nil reply", "the reply"
			case redisops.BusyZero:
				form, check = "0", "the reply"
			}
			fix, why := c.checkBoolFix(a, out)
			c.report(a, out, rel, fix, noFix(fmt.Sprintf("only the error of %s is checked: a held lock is %s with a nil error, so this runs without the lock; check %s too", a.Method, form, check), why))
		}
		return
	case out.Busy == redisops.BusyErr && out.Read == redisops.ReadErr:
		if sentinel, ok := c.onlyBusy(a, out); ok {
			if rel, ok := c.lock(a, out); ok {
				c.report(a, out, rel, c.failFix(a, out), fmt.Sprintf("only the busy reply of %s (%s) is handled: other errors (a timeout) fall through as acquired; return them after the busy check", a.Method, fixes.Text(c.pass.Fset, sentinel)))
			}
			return
		}
	}
	c.flow(a, out)
}

// noFix appends the reason a finding carries no fix, when there is one.
func noFix(msg, why string) string {
	if why == "" {
		return msg
	}
	return msg + " (no fix: " + why + ")"
}

// busyInValue reports whether busy shows in the reply value, with a nil
// error: false, a nil reply, or 0.
func busyInValue(b redisops.Busy) bool {
	return b == redisops.BusyFalse || b == redisops.BusyNil || b == redisops.BusyZero
}

// lock finds the evidence that a takes a lock: a release of its key (a DEL
// of a same-shape key in another function only when named like a lock),
// lock-like names, an acquire that takes a lock by definition
// (out.IsLock), or a fresh random token written with a TTL
// (lockid.FreshToken: a lease, whatever the function is called); a key
// whose life says counter or marker (lockid.Role) is none, whatever its
// name. rel is the release, if any.
func (c *checker) lock(a *redisops.Op, out redisops.Outcome) (*lockid.Release, bool) {
	if c.locks == nil {
		c.locks = lockid.New(c.pass, c.res)
	}
	if !out.IsLock && c.locks.Role(a) != lockid.RoleLock {
		return nil, false // a counter or a retry marker, whatever its name
	}
	info := c.pass.TypesInfo
	named := lockid.Named(info, a)
	var best *lockid.Release
	br := 0
	for _, r := range c.locks.Releases(a) {
		if inTest(c.pass, r.Op) {
			continue // fixture cleanup, not a release
		}
		n := 0
		switch {
		case r.Evidence == lockid.SameFunc:
			n = 4
		case r.Evidence == lockid.ViaHelper, r.Evidence == lockid.Counterpart:
			n = 3
		case r.Checked:
			n = 2
		case named || lockid.Named(info, r.Op):
			n = 1
		}
		if n > br {
			best, br = &r, n
		}
	}
	return best, br > 0 || named || out.IsLock || c.locks.FreshToken(a)
}

// inTest reports whether op is in a _test.go file: tests seed lock keys
// as fixtures (to make the code under test find the lock busy) and clean
// them up, and need not read the reply.
func inTest(pass *analysis.Pass, op *redisops.Op) bool {
	return astx.InTest(pass.Fset, op.Call.Pos())
}

func (c *checker) report(a *redisops.Op, out redisops.Outcome, rel *lockid.Release, fix *analysis.SuggestedFix, msg string) {
	d := analysis.Diagnostic{Pos: a.Call.Pos(), End: out.Expr.End(), Message: msg}
	if rel != nil {
		d.Related = append(d.Related, related(rel))
	}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	c.r.Report(d)
}

func related(rel *lockid.Release) analysis.RelatedInformation {
	if rel.Call != nil {
		return analysis.RelatedInformation{Pos: rel.Call.Pos(), End: rel.Call.End(), Message: "lock released through this call"}
	}
	return analysis.RelatedInformation{Pos: rel.Op.Call.Pos(), End: rel.Op.Call.End(), Message: "lock released here"}
}

// onlyBusy reports whether every use of a BusyErr acquire's error is a
// test for the busy reply, and returns the sentinel it is compared with.
func (c *checker) onlyBusy(a *redisops.Op, out redisops.Outcome) (ast.Expr, bool) {
	info := c.pass.TypesInfo
	var sentinel ast.Expr
	ok := true
	visit := func(use ast.Expr, parent ast.Node) {
		s := c.busyRole(a, use, parent)
		if s == nil {
			ok = false
		} else if sentinel == nil {
			sentinel = s
		}
	}
	if id, isID := out.Err.(*ast.Ident); isID {
		obj := info.ObjectOf(id)
		for _, cur := range c.facts(a).uses[obj] {
			u := cur.Node().(*ast.Ident)
			if u == id {
				continue
			}
			p := cur.Parent()
			for {
				if _, isParen := p.Node().(*ast.ParenExpr); !isParen {
					break
				}
				p = p.Parent()
			}
			visit(u, p.Node())
		}
	} else {
		p := out.ExprCursor.Parent()
		for {
			if _, isParen := p.Node().(*ast.ParenExpr); !isParen {
				break
			}
			p = p.Parent()
		}
		visit(out.Err, p.Node())
	}
	return sentinel, ok && sentinel != nil
}

// busyRole returns the busy sentinel when use (the acquire's error) is an
// operand of a test for the busy reply (parent is its syntactic parent),
// or nil.
func (c *checker) busyRole(a *redisops.Op, use ast.Expr, parent ast.Node) ast.Expr {
	info := c.pass.TypesInfo
	switch p := parent.(type) {
	case *ast.BinaryExpr:
		if p.Op != token.EQL && p.Op != token.NEQ {
			return nil
		}
		other := p.Y
		if ast.Unparen(p.Y) == use {
			other = p.X
		}
		if a.IsBusyErr(info, other) {
			return other
		}
	case *ast.CallExpr:
		if isErrorsIs(info, p) && len(p.Args) == 2 && ast.Unparen(p.Args[0]) == use && a.IsBusyErr(info, p.Args[1]) {
			return p.Args[1]
		}
		if arg, ok := a.BusyTest(info, p); ok && ast.Unparen(arg) == use {
			return p
		}
	case *ast.SwitchStmt:
		if p.Tag != use {
			return nil
		}
		var s ast.Expr
		for _, cl := range p.Body.List {
			cc := cl.(*ast.CaseClause)
			if cc.List == nil {
				return nil
			}
			for _, e := range cc.List {
				if !a.IsBusyErr(info, e) {
					return nil
				}
				s = e
			}
		}
		return s
	}
	return nil
}

func isErrorsIs(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is"
}

var failOpenComment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)fail[-_ ]?s?[-_ ]?open`) })

// flow follows the outcome through the function and reports the first
// path on which a busy or failed outcome is treated as acquired.
func (c *checker) flow(a *redisops.Op, out redisops.Outcome) {
	if c.locks == nil {
		c.locks = lockid.New(c.pass, c.res)
	}
	f := newFlow(c.pass, c.res, c.locks, c.facts(a), a, out)
	if f == nil {
		return
	}
	f.run()
	if f.bad {
		return
	}
	var pick *sink
	var msg string
	choose := func(kind sinkKind, bit outcomes, text string) {
		if pick != nil {
			return
		}
		for _, s := range f.sinks {
			if s.kind != kind || s.s&bit == 0 {
				continue
			}
			if kind == retTrue && (!f.retAcq || s.plain&bit == 0 || bit == failed && c.failOpenNoted(a, s.node)) {
				continue // true there may answer another question (found in a cache)
			}
			if kind == retNil && (!f.nilAcq || !f.busyErr || f.busyNil || c.failOpenNoted(a, s.node)) {
				continue
			}
			if kind == work && (s.s&acquired == 0 || s.plain&bit == 0 || bit == failed && c.failOpenNoted(a, s.node)) {
				continue // the work is run only then (a fallback), or on a test of something else
			}
			if pick == nil || s.node.Pos() < pick.node.Pos() {
				pick = s
			}
		}
		if pick != nil {
			msg = text
		}
	}
	choose(retTrue, failed, fmt.Sprintf("when %s fails, this path returns true (acquired): in an outage every caller takes the lock; return false with the error", a.Method))
	choose(retNil, failed, fmt.Sprintf("when %s fails, this path returns a nil error, read as acquired: in an outage every caller takes the lock; return the error", a.Method))
	choose(release, failed, fmt.Sprintf("when %s fails, this path still runs the work and the release without the lock; stop on the error", a.Method))
	choose(retTrue, busy, fmt.Sprintf("when %s finds the lock busy, this path still returns true (acquired): two holders run at once; return false", a.Method))
	choose(release, busy, fmt.Sprintf("when %s finds the lock busy, this path still runs the work and the release; stop when the key was not set", a.Method))
	choose(work, failed, fmt.Sprintf("when %s fails, this path still runs the work (%%s) without the lock; stop on the error", a.Method))
	choose(work, busy, fmt.Sprintf("when %s finds the lock busy, this path still runs the work (%%s); stop when the key was not set", a.Method))
	if pick == nil {
		return
	}
	rel, ok := c.lock(a, out)
	if !ok {
		return
	}
	if pick.kind == work {
		msg = fmt.Sprintf(msg, fixes.Text(c.pass.Fset, pick.call.Fun))
	}
	d := analysis.Diagnostic{Pos: a.Call.Pos(), End: out.Expr.End(), Message: msg}
	if fix := c.failClosedFix(f, pick); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	} else if pick.kind == release || pick.kind == work {
		d.Message += " (no fix: where this path should stop is the author's choice)"
	}
	switch pick.kind {
	case retTrue, retNil:
		d.Related = []analysis.RelatedInformation{{Pos: pick.node.Pos(), End: pick.node.End(), Message: "returns acquired here"}}
	case work:
		d.Related = []analysis.RelatedInformation{{Pos: pick.node.Pos(), End: pick.node.End(), Message: "the work runs here"}}
	default:
		rel = pick.rel
	}
	if rel != nil {
		d.Related = append(d.Related, related(rel))
	}
	c.r.Report(d)
}

// failOpenNoted reports whether a comment between the acquire and the
// sink says that failing open is intended.
func (c *checker) failOpenNoted(a *redisops.Op, n ast.Node) bool {
	file := c.res.FileIndex(c.pass).At(a.Call.Pos())
	if file == nil {
		return false
	}
	// The file's comments are in position order: those from the acquire on.
	i := sort.Search(len(file.Comments), func(i int) bool { return file.Comments[i].Pos() >= a.Call.Pos() })
	for _, cg := range file.Comments[i:] {
		if cg.Pos() >= n.End() {
			break
		}
		if failOpenComment().MatchString(cg.Text()) {
			return true
		}
	}
	return false
}
