package unsaferenew

// Decisions where the rule leaves room:
//
//   - The key must be a lock key by lockid's evidence, and the expire must
//     run as a renewal: in a loop (not one that contains the acquire
//     itself, as a retry loop or a loop over several locks does), in a
//     goroutine (go func, errgroup's or WaitGroup's Go, a function started
//     with go), in a time.AfterFunc callback, in a function named like a
//     renewal (Refresh, Extend, Renew, Prolong, KeepAlive, Heartbeat,
//     Watchdog, by word), or in a package function called in one of those
//     ways. A name alone, without the lock-key evidence, is never enough.
//   - An expire that an acquire with no TTL of the same key reaches in the
//     same function gives the lock its first TTL: that is LV101's finding,
//     left to it (the predicate is LV101's, repeated here).
//   - EXPIRE with a constant TTL ≤ 0 deletes the key (LV104); an EXPIRE
//     inside Watch, or queued on a batch the function was handed, is left
//     alone. One queued in a pipeline or transaction the function sends
//     (Pipelined: an EXPIRE for every tracked key) checks nothing first
//     and is reported, without a fix: the batch's replies are read by
//     position and type, and a script in its place changes them.
//   - A GETSET of a lock key that runs as a renewal is reported, sent on
//     its own or queued (a pipeline or MULTI/EXEC does not make it check
//     first), without a fix. Its key is a lock key by lockid's evidence,
//     which includes the GETSET itself when it writes an acquire's token
//     and compares the value it replaced with it (lockid.Token). The
//     takeover of the old SETNX recipe (GETSET after a failed acquire in
//     the same function) is no renewal: there only a loop or goroutine in
//     that function that does not run the acquire again makes it one, not
//     the function's name or its callers' loops. A counter reset writes no
//     token.
//   - EXPIREAT/PEXPIREAT and EXPIRE NX/GT/LT renew too and are reported;
//     the fix is offered only for EXPIRE, PEXPIRE and EXPIRE XX, whose
//     effect on a held lock the compare-and-pexpire script reproduces.
//   - A Lua script that expires the key without comparing its value
//     (lua.UncheckedExpire) is the same mistake and is reported, without a
//     fix; an owner-checked script (lua.CompareAndExpire) is silent.
//   - A GET compared with the token before the EXPIRE is an owner check in
//     two round trips: reported with its own message, with the same fix.
//
// The fix runs the compare-and-pexpire script instead of the EXPIRE, with
// the acquire's value as the token when it is a variable or field in scope
// (for a Lock/Refresh pair, the same field of the renewing method's
// receiver; for Lock(key, owner)/Watchdog(key, owner) helpers whose value
// is a parameter, not a part of the key, the renewing function's
// parameter of the same name and type) and the TTL as ttl.Milliseconds().

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/lockname"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/internal/tokenfix"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV203",
	Name:  "unsaferenew",
	Title: "lock renewed by EXPIRE without checking it is still held",
	Why: `A lock renewal (a keep-alive loop, a ticker goroutine, a Refresh method)
that sends a bare EXPIRE or PEXPIRE extends whoever holds the key now. When
this process stalled past the TTL (a GC pause, a slow call, a network
partition), the lock expired and another process took it; the next renewal
then extends the other process's lock, and this process carries on as if it
still held it. Two holders run the critical section at once, and the other
holder's lock outlives it. A renewal by GETSET of the token (with an EXPIRE
after it, or in one MULTI/EXEC) is worse: it replaces the other holder's
value before the old one is compared, and the compare after it comes too
late. A GET of the value compared in Go before the
EXPIRE is two round trips: the lock can expire and pass to another
process between them. A script that renews without comparing the key's
value with the token has the same flaw as a bare EXPIRE.`,
	Fix: `Renew with a script that extends the TTL only while the key still holds
this process's token: if redis.call("get", KEYS[1]) == ARGV[1] then return
redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end, with the TTL
passed in milliseconds (ttl.Milliseconds(): a time.Duration argument is sent
in nanoseconds). A result of 0 means the lock was lost: stop the work. The
suggested fix declares the script once per package (or reuses an
equivalent one) and runs it in place of the EXPIRE; it is offered when the
token the lock was acquired with is a variable or field in scope at the
EXPIRE (or, when the acquire writes a parameter of its function, a
parameter of the same name and type of the renewing function) and the TTL
is a time.Duration (an integer, or a string of digits, with redigo). A
value that is a part of the lock's key (SETNX "lock:"+id with the value
id) is no token: every holder writes it. Then, as for a constant in a
Lock/Unlock helper pair, the fix is the pair's: Lock returns a random
token, and Unlock and the renewing function take it.
Where there is no fix, the message ends with the reason ("no fix: …"). When the lock is acquired with a constant (LV204) in the
same function as the renewal, the fix is LV204's: a random token made
before the acquire, written as the value, and compared by the release and
by the renewal, so that the fixes of both checks are one edit and one
token variable. Lock libraries do this for you:
redsync's Extend, bsm/redislock's Refresh, rueidislock. memcached has no
scripts: with gomemcache, Get the item, compare its Value with the token,
and CompareAndSwap it with the new Expiration; lockvet reports a gomemcache
Touch without a fix.`,
	Bad: `go func() {
	for range ticker.C {
		rdb.Expire(ctx, key, ttl)
	}
}()`,
	Good: `var renewScript = redis.NewScript(` + "`" + lua.RenewSrc + "`" + `)

go func() {
	for range ticker.C {
		ok, err := renewScript.Run(ctx, rdb, []string{key}, token, ttl.Milliseconds()).Bool()
		if err != nil || !ok {
			cancel() // the lock is lost
			return
		}
	}
}()`,
	Since:    "v0.1.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-667"},
}

// Analyzer is LV203 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV203 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, func(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
		run(pass, res, cfg, r)
	})
}

type checker struct {
	pass  *analysis.Pass
	res   *redisops.Result
	cfg   *lvconfig.Config
	r     *report.Reporter
	locks *lockid.Locks
	vars  *redisops.ScriptVars

	started map[*types.Func]string             // functions started as goroutines or timer callbacks
	calls   map[*types.Func][]inspector.Cursor // static calls of package functions

	assigned map[*types.Var]bool // variables assigned or address-taken, built on demand
}

func run(pass *analysis.Pass, res *redisops.Result, cfg *lvconfig.Config, r *report.Reporter) {
	c := &checker{pass: pass, res: res, cfg: cfg, r: r, locks: lockid.New(pass, res)}
	if len(c.locks.Acquires()) == 0 {
		return
	}
	c.vars = redisops.NewScriptVars(pass, res)
	for _, e := range res.Ops {
		if e.Scope.InWatch || len(e.Keys) != 1 || e.KeysSpread || e.Func == nil || e.InHelper() {
			continue
		}
		// A GETSET overwrites the key before anything is checked, sent
		// on its own or queued: a pipeline or MULTI/EXEC makes it no
		// safer. So does an EXPIRE queued in a batch this function sends
		// (outside Watch, nothing compares first). The other renewals
		// are checked only when sent on their own.
		if e.Scope.Kind != redisops.Direct && e.Kind != redisops.GetSet && (e.Kind != redisops.Expire || e.Scope.Param) {
			continue
		}
		switch e.Kind {
		case redisops.GetSet:
			if e.Value == nil {
				continue
			}
		case redisops.Expire:
			if e.TTL == nil || e.DeletesKey() || setsFirstTTL(pass.TypesInfo, e) || afterGetSet(pass, e) {
				continue
			}
		case redisops.Script:
			if e.ScriptSrc == "" || lua.Classify(e.ScriptSrc).Kind != lua.UncheckedExpire {
				continue
			}
		default:
			continue
		}
		lk := c.locks.Of(e, e.Key())
		if lk == nil || c.locks.Role(lk.Acquire) != lockid.RoleLock {
			continue // a counter's or a retry marker's TTL
		}
		how := ""
		if e.Kind == redisops.GetSet && lk.Acquire.Func != nil && lk.Acquire.Call.Pos() < e.Call.Pos() && astx.Encloses(lk.Acquire.Func.Node, e.Call) {
			// In the acquire's own function a GETSET is the takeover of
			// an expired lock, part of acquiring it, unless a loop or
			// goroutine there runs it again after the acquire.
			how = c.lexicalRenewal(e.Cursor, lk.Acquire)
		} else {
			how = c.renewal(e.Cursor, lk.Acquire, true)
		}
		if how == "" {
			continue
		}
		c.report(e, lk, how)
	}
}

// setsFirstTTL reports whether an acquire that left the key with no TTL,
// earlier in the same function, reaches e: e gives the lock its first TTL
// rather than renewing it. That is LV101's finding (the same predicate as
// setnxexpire's), so this check leaves it alone.
func setsFirstTTL(info *types.Info, e *redisops.Op) bool {
	f := e.Func
	for _, a := range f.OpsOn(e.KeyForm()) {
		if (a.Kind != redisops.Acquire && a.Kind != redisops.GetSet) || !a.NoTTL || a.Scope.Kind != redisops.Direct && e.Scope.Kind == redisops.Direct ||
			a.Call.Pos() >= e.Call.Pos() && a.Call.Pos() < e.Call.End() ||
			!keyid.Same(a.KeyForm(), e.KeyForm()) {
			continue
		}
		if f.Reachable(a.Call.Pos(), e.Call.Pos()) {
			return true
		}
	}
	return false
}

// afterGetSet reports whether e, queued in a batch, follows a GETSET of
// the same key queued in the same batch: one renewal, reported at the
// GETSET.
func afterGetSet(pass *analysis.Pass, e *redisops.Op) bool {
	if e.Scope.Kind == redisops.Direct {
		return false
	}
	for _, g := range e.Func.Ops {
		if g.Kind == redisops.GetSet && g.Key() != nil && g.Scope.Node == e.Scope.Node && g.Call.Pos() < e.Call.Pos() &&
			(keyid.Same(g.KeyForm(), e.KeyForm()) || fixes.Text(pass.Fset, g.Key()) == fixes.Text(pass.Fset, e.Key())) {
			return true
		}
	}
	return false
}

// renewal says why the code at cur runs as a renewal of the lock acquired
// by a, or "": it runs in a loop (one that does not acquire the lock
// itself: a retry loop or a loop over several locks sets a fresh lock's
// TTL), in a goroutine or timer callback, in a function named like a
// renewal (Refresh, Extend, Renew, KeepAlive, Heartbeat, …) or, with
// viaCalls, in a package function that some call runs that way. Names are
// only ever used together with the lock-key evidence the caller has.
func (c *checker) renewal(cur inspector.Cursor, a *redisops.Op, viaCalls bool) string {
	for p := range cur.Enclosing() {
		switch n := p.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if n.Pos() <= a.Call.Pos() && a.Call.End() <= n.End() {
				continue
			}
			return "in a loop"
		case *ast.FuncLit:
			if how := c.startedLit(p); how != "" {
				return how
			}
			// A literal called in place runs where it is written.
			if call, ok := p.Parent().Node().(*ast.CallExpr); ok && call.Fun == n {
				continue
			}
			// A callback: only the enclosing declaration's name can tell.
			for d := range p.Enclosing((*ast.FuncDecl)(nil)) {
				if renewName(d.Node().(*ast.FuncDecl).Name.Name) {
					return "in " + d.Node().(*ast.FuncDecl).Name.Name
				}
			}
			return ""
		case *ast.FuncDecl:
			if renewName(n.Name.Name) {
				return "in " + n.Name.Name
			}
			fn, ok := c.pass.TypesInfo.Defs[n.Name].(*types.Func)
			if !ok {
				return ""
			}
			if how := c.startedFuncs()[fn]; how != "" {
				return how
			}
			if viaCalls {
				for _, call := range c.callsOf(fn) {
					if how := c.renewal(call, a, false); how != "" {
						return "by " + n.Name.Name + ", called " + how
					}
				}
			}
			return ""
		}
	}
	return ""
}

// lexicalRenewal says why the code at cur, in the function of the
// acquire a, runs as a renewal of it there: in a loop that does not hold
// a, or in a function literal started as a goroutine or timer callback.
// The function's name and its callers say nothing: they run the acquire
// too.
func (c *checker) lexicalRenewal(cur inspector.Cursor, a *redisops.Op) string {
	for p := range cur.Enclosing() {
		switch n := p.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if !astx.Encloses(n, a.Call) {
				return "in a loop"
			}
		case *ast.FuncLit:
			if how := c.startedLit(p); how != "" {
				return how
			}
			if call, ok := p.Parent().Node().(*ast.CallExpr); !ok || call.Fun != n {
				return ""
			}
		case *ast.FuncDecl:
			return ""
		}
	}
	return ""
}

// renewWords begin the words (of a camelCase or snake_case name) that
// name a renewal: Refresh, extendLock, renewTTL, KeepAlive, heartbeat, …
var renewWords = []string{"refresh", "extend", "renew", "prolong", "keepalive", "heartbeat", "watchdog"}

func renewName(name string) bool {
	words := lockname.Words(name)
	for i, w := range words {
		if i+1 < len(words) {
			// keepAlive, heartBeat, watchDog: two words.
			w2 := w + words[i+1]
			switch {
			case strings.HasPrefix(w2, "keepalive"), strings.HasPrefix(w2, "heartbeat"), strings.HasPrefix(w2, "watchdog"):
				return true
			}
		}
		for _, r := range renewWords {
			if strings.HasPrefix(w, r) {
				return true
			}
		}
	}
	return false
}

// startedLit says whether the function literal at lit is started as a
// goroutine (go func(){…}(), errgroup's or WaitGroup's Go) or as a timer
// callback (time.AfterFunc).
func (c *checker) startedLit(lit inspector.Cursor) string {
	call, ok := lit.Parent().Node().(*ast.CallExpr)
	if !ok {
		return ""
	}
	if call.Fun == lit.Node() {
		if g, ok := lit.Parent().Parent().Node().(*ast.GoStmt); ok && g.Call == call {
			return "in a goroutine"
		}
		return ""
	}
	return c.starter(call)
}

// starter says whether call starts its function argument asynchronously.
func (c *checker) starter(call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return ""
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "time.AfterFunc":
		return "in a timer callback"
	case "golang.org/x/sync/errgroup.Go", "sync.Go":
		return "in a goroutine"
	}
	return ""
}

// startedFuncs lists the package's functions that are started as
// goroutines (go f(…), go x.m(…)) or passed to a starter (time.AfterFunc(d,
// x.m), g.Go(f)).
func (c *checker) startedFuncs() map[*types.Func]string {
	if c.started != nil {
		return c.started
	}
	c.started = map[*types.Func]string{}
	info := c.pass.TypesInfo
	for n := range c.res.Inspector.PreorderSeq((*ast.GoStmt)(nil), (*ast.CallExpr)(nil)) {
		switch n := n.(type) {
		case *ast.GoStmt:
			if fn := typeutil.StaticCallee(info, n.Call); fn != nil && fn.Pkg() == c.pass.Pkg {
				c.started[fn] = "in a goroutine"
			}
		case *ast.CallExpr:
			how := ""
			for _, arg := range n.Args {
				var obj types.Object
				switch a := ast.Unparen(arg).(type) {
				case *ast.Ident:
					obj = info.Uses[a]
				case *ast.SelectorExpr:
					obj = info.Uses[a.Sel]
				}
				fn, ok := obj.(*types.Func)
				if !ok || fn.Pkg() != c.pass.Pkg {
					continue
				}
				if how == "" {
					if how = c.starter(n); how == "" {
						break
					}
				}
				c.started[fn] = how
			}
		}
	}
	return c.started
}

// callsOf lists the static calls of the package function fn.
func (c *checker) callsOf(fn *types.Func) []inspector.Cursor {
	if c.calls == nil {
		c.calls = map[*types.Func][]inspector.Cursor{}
		for cur := range c.res.Inspector.Root().Preorder((*ast.CallExpr)(nil)) {
			if f := typeutil.StaticCallee(c.pass.TypesInfo, cur.Node().(*ast.CallExpr)); f != nil && f.Pkg() == c.pass.Pkg {
				c.calls[f] = append(c.calls[f], cur)
			}
		}
	}
	return c.calls[fn]
}

func (c *checker) report(e *redisops.Op, lk *lockid.Lock, how string) {
	pass := c.pass
	key := fixes.Text(pass.Fset, e.Key())
	var msg string
	switch {
	case e.Kind == redisops.GetSet:
		msg = fmt.Sprintf("%s renews lock %s %s, overwriting it before checking the old value: it can replace and extend another holder's lock; renew with a compare-and-pexpire script",
			e.Method, key, how)
	case e.Kind == redisops.Script:
		msg = fmt.Sprintf("script renews lock %s %s without comparing its value with the token, so it can extend another holder's lock; compare before PEXPIRE",
			key, how)
	case c.checkedByGet(e):
		advice := "compare and extend in one script"
		if s := e.Advice(redisops.AdviseRenew); s != "" {
			advice = s
		}
		msg = fmt.Sprintf("%s renews lock %s %s after a separate GET, so it can extend another holder's lock; %s",
			e.Method, key, how, advice)
	default:
		advice := "use a compare-and-pexpire script"
		if s := e.Advice(redisops.AdviseRenew); s != "" {
			advice = s
		}
		msg = fmt.Sprintf("%s renews lock %s %s without checking the token, so it can extend another holder's lock; %s",
			e.Method, key, how, advice)
	}
	d := analysis.Diagnostic{
		Pos:     e.Call.Pos(),
		End:     e.Call.End(),
		Message: msg,
		Related: []analysis.RelatedInformation{{Pos: lk.Acquire.Call.Pos(), End: lk.Acquire.Call.End(), Message: "lock acquired here"}},
	}
	if lk.Evidence == lockid.ViaHelper {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: lk.Call.Pos(), End: lk.Call.End(), Message: "lock key passed here"})
	}
	why := "" // why there is no fix
	switch {
	case e.Kind == redisops.Expire && e.Scope.Kind != redisops.Direct:
		// The batch's replies are read by position and type: a script
		// in the EXPIRE's place changes them.
		why = "queued in a pipeline"
	case e.Kind == redisops.GetSet:
		// GETSET clears the TTL, so an EXPIRE follows it, and the code may
		// check the old value it replies: a rewrite of several statements
		// into one script, which no fix builds.
		why = "GETSET and its EXPIRE must become one script"
	case e.Kind == redisops.Script:
		why = "the compare goes into the project's own script"
	case e.Kind == redisops.Expire:
		a := lk.Acquire
		if token, ok := c.tokenAt(lk, e); ok {
			if edits, ok := e.Renew(pass, c.vars, token); ok {
				d.SuggestedFixes = []analysis.SuggestedFix{{
					Message:   "Renew with a compare-and-pexpire script that extends only while the lock holds the token",
					TextEdits: edits,
				}}
			} else {
				why = e.RenewWhy(pass, c.vars)
			}
		} else if a.Value != nil && (constval.Known(pass.TypesInfo, a.Value) || !tokenfix.StringValue(pass.TypesInfo, a.Value) || tokenfix.KeyPart(a)) && (astx.Encloses(a.Func.Node, e.Call) || lk.Evidence == lockid.Counterpart || lk.Evidence == lockid.SameShape) {
			// A constant (LV204), a value that is no token or a part of
			// the key: the acquire's token plan, with this renewal
			// comparing too (for a helper pair, the renewing function
			// takes the token as Unlock does).
			if p := tokenfix.Renewal(pass, c.res, a, e, redisops.ReleaseOptions{DelEx: c.cfg.RedisAtLeast(8, 4)}, c.cfg.ModuleView()); p.OK {
				d.SuggestedFixes = []analysis.SuggestedFix{p.Fix}
			} else {
				why = p.Why
			}
		} else if why = e.RenewWhy(pass, c.vars); why == "" {
			why = c.noTokenWhy(lk, e)
		}
	}
	if len(d.SuggestedFixes) == 0 {
		if why == "" {
			why = "can't rewrite this " + e.Method
		}
		d.Message += " (no fix: " + why + ")"
	}
	c.r.Report(d)
}

// noTokenWhy says why the renewal e has no token to compare with: what
// the acquire wrote is not at hand at e.
func (c *checker) noTokenWhy(lk *lockid.Lock, e *redisops.Op) string {
	a := lk.Acquire
	switch {
	case a.Value == nil && a.Via != nil && a.Via.ValueConst != "":
		return fmt.Sprintf("%s writes the constant %s, in another function", a.Via.Name, a.Via.ValueConst)
	case a.Value == nil:
		return fmt.Sprintf("%s writes no value to compare with", a.Method)
	case constval.Known(c.pass.TypesInfo, a.Value):
		return fmt.Sprintf("the lock is acquired with the constant %s in another function", fixes.Text(c.pass.Fset, a.Value))
	}
	return fmt.Sprintf("the acquire's value %s is not at hand here", fixes.Text(c.pass.Fset, a.Value))
}

// checkedByGet reports whether a GET of the same key, earlier in e's
// function, reaches e: an owner check in Go, in a separate round trip.
func (c *checker) checkedByGet(e *redisops.Op) bool {
	f := e.Func
	for _, g := range f.OpsOn(e.KeyForm()) {
		if g.Kind == redisops.Get && g.Call.Pos() < e.Call.Pos() && keyid.Same(g.KeyForm(), e.KeyForm()) && f.Reachable(g.Call.Pos(), e.Call.Pos()) {
			return true
		}
	}
	return false
}

// tokenAt returns the source text, valid at e, of the token the lock was
// acquired with: the acquire's value when it is a variable or field that
// never changes after its declaration and is in scope at e, or the same
// field of e's key's receiver when the acquire and e are methods of the
// same type (m.token for m.key).
func (c *checker) tokenAt(lk *lockid.Lock, e *redisops.Op) (string, bool) {
	info := c.pass.TypesInfo
	a := lk.Acquire
	if a.Value == nil {
		return "", false
	}
	v := ast.Unparen(a.Value)
	if tv, ok := info.Types[v]; !ok || tv.Value != nil || tv.IsNil() {
		return "", false
	}
	if tokenfix.KeyPart(a) {
		// SetNX(prefix+id, id, ttl): every holder of the key writes id,
		// so comparing with it (or with a parameter of the same name)
		// checks no owner; LV201's fix writes a token instead.
		return "", false
	}
	pos := e.Call.Pos()
	switch v := v.(type) {
	case *ast.Ident:
		obj, ok := info.Uses[v].(*types.Var)
		if !ok || obj.IsField() {
			return "", false
		}
		if !c.visible(v, obj, pos) || c.reassigned(obj) {
			return c.sameParam(lk, e, obj)
		}
		return v.Name, true
	case *ast.SelectorExpr:
		sel, ok := info.Selections[v]
		if !ok || sel.Kind() != types.FieldVal || !path(v.X) {
			return "", false
		}
		if fixes.InScopeAt(info, c.pass.Pkg, v, pos) && c.visibleAll(v.X, pos) {
			return fixes.Text(c.pass.Fset, v), true
		}
		// m.token written by Lock(m.key); e renews n.key in another method.
		ak, ok1 := ast.Unparen(a.Key()).(*ast.SelectorExpr)
		ek, ok2 := ast.Unparen(e.Key()).(*ast.SelectorExpr)
		_, _, sameField := keyid.SameFields(a.KeyForm(), e.KeyForm())
		if !ok1 || !ok2 || !path(ek.X) || !sameField ||
			!a.Func.Scope().Same(ak.X, v.X) ||
			!types.Identical(info.TypeOf(ak.X), info.TypeOf(ek.X)) {
			return "", false
		}
		return fixes.Text(c.pass.Fset, ek.X) + "." + v.Sel.Name, true
	}
	return "", false
}

// sameParam handles helper pairs such as Lock(key, token) / Renew(key,
// token) (never Lock(id) / Watchdog(ctx, id) that write the id, a part
// of the key, itself: tokenAt refuses those): the acquire's value is the parameter v of its function declaration, never
// assigned there, and the function declaration holding the renewal e (in
// a goroutine it starts, too) has a parameter of the same name and type,
// never assigned, that e sees. Lock and renewal name the same lock
// (lockid's evidence), so that parameter holds what the acquire wrote.
func (c *checker) sameParam(lk *lockid.Lock, e *redisops.Op, v *types.Var) (string, bool) {
	if lk.Evidence != lockid.Counterpart && lk.Evidence != lockid.SameShape {
		return "", false
	}
	info := c.pass.TypesInfo
	a := lk.Acquire
	adecl, ok := a.Func.Node.(*ast.FuncDecl)
	if !ok || !declParam(info, adecl, v) || c.reassigned(v) {
		return "", false
	}
	var edecl *ast.FuncDecl
	for d := range e.Cursor.Enclosing((*ast.FuncDecl)(nil)) {
		edecl = d.Node().(*ast.FuncDecl)
	}
	if edecl == nil || edecl == adecl {
		return "", false
	}
	for _, f := range edecl.Type.Params.List {
		for _, n := range f.Names {
			p, ok := info.Defs[n].(*types.Var)
			if !ok || n.Name != v.Name() || !types.Identical(p.Type(), v.Type()) || c.reassigned(p) {
				continue
			}
			scope := fixes.ScopeAt(c.pass, c.res.FileIndex(c.pass).At(e.Call.Pos()), e.Call.Pos())
			if scope == nil {
				return "", false
			}
			if _, got := scope.LookupParent(n.Name, e.Call.Pos()); got != p {
				return "", false // shadowed at e
			}
			return n.Name, true
		}
	}
	return "", false
}

// declParam reports whether v is a parameter of the declaration d.
func declParam(info *types.Info, d *ast.FuncDecl, v *types.Var) bool {
	for _, f := range d.Type.Params.List {
		for _, n := range f.Names {
			if info.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// path reports whether e is an identifier or a chain of field selections
// on one (x, x.y, x.y.z).
func path(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return path(e.X)
	}
	return false
}

// visible reports whether id's object obj is what id's name means at pos.
func (c *checker) visible(id *ast.Ident, obj types.Object, pos token.Pos) bool {
	if !fixes.InScopeAt(c.pass.TypesInfo, c.pass.Pkg, id, pos) {
		return false
	}
	scope := fixes.ScopeAt(c.pass, c.res.FileIndex(c.pass).At(pos), pos)
	if scope == nil {
		return false
	}
	_, got := scope.LookupParent(id.Name, pos)
	return got == obj
}

// visibleAll checks visible for the root identifier of a path.
func (c *checker) visibleAll(e ast.Expr, pos token.Pos) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			obj := c.pass.TypesInfo.Uses[x]
			return obj != nil && c.visible(x, obj, pos)
		case *ast.SelectorExpr:
			e = x.X
		default:
			return false
		}
	}
}

// reassigned reports whether v is assigned anywhere in the package after
// its declaration, or has its address taken. One walk of the package
// answers for every variable.
func (c *checker) reassigned(v *types.Var) bool {
	if c.assigned == nil {
		c.assigned = map[*types.Var]bool{}
		info := c.pass.TypesInfo
		mark := func(e ast.Expr) {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					c.assigned[v] = true
				}
			}
		}
		for n := range c.res.Inspector.PreorderSeq((*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil)) {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					mark(l)
				}
			case *ast.IncDecStmt:
				mark(n.X)
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					mark(n.X)
				}
			case *ast.RangeStmt:
				if n.Key != nil {
					mark(n.Key)
				}
				if n.Value != nil {
					mark(n.Value)
				}
			}
		}
	}
	return c.assigned[v]
}
