package constvalue

// Decisions where the rule leaves room:
//
//   - Shared values: constant expressions (and nil), variables whose one
//     definition is such a value and that are never assigned again, the
//     lock's own key, string(integer) (one character), and the process ID
//     alone or formatted with constants (strconv.Itoa(os.Getpid()),
//     fmt.Sprintf("pid-%d", os.Getpid())): PIDs repeat across hosts and
//     containers, where the main process is often PID 1, and every
//     goroutine of a process shares one. The host name (h, _ :=
//     os.Hostname(), h never written again), the host name with the PID,
//     a package-level variable whose one value is set at its declaration
//     or by one assignment in an init function (var owner =
//     uuid.NewString(): random, but once per process), and a time's
//     Unix() seconds, each alone or formatted with constants. Timestamps
//     finer than a second (time.Now().String(), UnixNano, UnixMilli) and
//     a shared value formatted with anything else (host plus UnixNano)
//     are not reported: they differ between acquisitions in practice.
//     Fields (a config's node ID) are not followed: a field may hold a
//     token drawn for each acquisition.
//   - A release or renewal is a DEL/UNLINK, an EXPIRE (not the one that
//     gives a lock acquired with no TTL its first TTL: LV101's pair), or a
//     Lua script that deletes or expires the key, on the same lock by
//     lockid's evidence. A constant value with none of these is a set-once
//     marker: silent.
//   - An acquire in a _test.go file pairs only with releases and renewals
//     in test files: a fixture that plays another holder with a constant
//     is not released by the code under test.
//   - A lock that never gets a TTL cannot pass to another holder while this
//     one holds it, so its release needs no owner: silent. So are deletes
//     that run only with an error set in the acquiring function (an
//     idempotency key removed to allow a retry), as LV201 decides.
//   - A call of a lock type's constructor that keeps an argument as the
//     lock's value (redisops.Ctor: its acquire writes the field with SET
//     NX and a TTL, a method releases or renews the key, and the type is
//     named like a lock or compares the field with the key's value) is
//     reported at that argument when it is shared by the rules above:
//     ctor.go.
//   - A compare-and-delete or compare-and-expire script whose token
//     argument is a shared value is reported at that argument when the
//     acquire itself was not reported (its value is a parameter or field),
//     or is in another function: the release compares, and looks safe,
//     where it is read.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/internal/tokenfix"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV204",
	Name:  "constvalue",
	Title: "lock acquired with a value every holder shares, then released or renewed",
	Why: `A lock's value is how a holder proves the lock is still its own: a safe
release deletes the key only when it still holds the value this process
wrote, and a safe renewal extends it only then. When every holder writes
the same value (a constant such as "1", true or "locked", the key itself,
or the process ID, which repeats across hosts and containers and is shared
by every goroutine of a process; in containers it is often 1), no check can tell this process's lock from
the one another process took after this one's TTL ran out. Values that are
no constant can be as shared: the host name (one per host), the host name
with the process ID or a package-level variable set once (one per process:
every goroutine of it writes the same), and a Unix time in seconds (one per
second, the same for every holder that locks in that second, and across
hosts whose clocks differ). Releasing or
renewing it then deletes or extends the other process's lock, and even a
compare-and-delete script compares equal. The same holds for a Lua owner
check whose token argument is a constant: it matches another holder's lock
whenever that holder wrote the same value, and never this holder's when the
acquire wrote its own token. Converting an integer to a string (string(n))
gives a one-character string (a rune, not digits), shared by every holder
with the same number. A lock type whose constructor keeps its caller's
argument as the lock's value (NewLocker(key, "lockValue", ttl), its Lock
writing the field with SET NX and its Unlock releasing) shares that value
the same way, and when its acquire decides by reading the value back and
comparing, every caller that passes it holds the lock at once: the
finding is at the argument, in the caller's package.`,
	Fix: `Write a random token per acquisition (16 or more bytes from crypto/rand,
hex-encoded), keep it with the lock (a variable, a field of the lock value),
and pass it to the compare-and-delete release and the compare-and-pexpire
renewal. When the lock is released in the function that acquires it, the
suggested fix does this: it declares token := rand.Text() before the
acquire (a newLockToken helper, declared once in the package, for modules
older than Go 1.24), writes it as the value, and turns each DEL of the key
there into the compare-and-delete script (LV201 offers the same fix at each
DEL). When a helper acquires and its counterpart releases (Lock and
Unlock), the fix threads the token: Lock makes it, writes it and returns
it (an added string result, before a last error), Unlock takes it (an
added parameter) and releases with the script, and every caller keeps the
token of its Lock call and passes it to its Unlock call (an Unlock whose
compare-and-delete script compares with the constant compares with the
token instead): in the package,
and for an exported pair in the module's other packages and their test
files, which the lockvet command loads when the fix first needs them,
even when the command named only some packages (go vet sees one
package, so there is no fix); the fix's message then says that it
changes the exported signatures. When Unlock is called in a helper
where no Lock token is in scope and that helper's callers took the lock
through a helper of the same type (or package) that calls Lock once and
says by its result whether it got it (a service's acquireX/releaseX
around its repository's pair), the token is threaded one level up too:
the outer acquire returns it ("" on a path that returns before calling
Lock, which the compare-and-delete never matches), the outer release
takes it, and their callers keep and pass it as the pair's do; a deeper
nesting keeps the reason. At a caller of such helpers in another
package, the message says which helpers must make and take the token. There is no fix when a call cannot be rewritten so (Lock's
result passed on, Unlock called where no Lock token is in scope, or on
another receiver), when the pair implements an interface, or when code
reads the
lock's value and compares it with the constant. Where no fix is offered,
the message ends with the reason in a few words ("no fix: Unlock in
ReleaseAll has no Lock token in scope"); LV201 says the same at the DEL.
At a call of a lock type's constructor, the fix passes a fresh token
(rand.Text(), or newLockToken()) instead of the argument; there is none
for a lock made at package level or kept in a field, a composite literal
or a package-level variable (its users would share one token), nor when
the argument is the last use of a local variable.`,
	Bad: `ok, err := rdb.SetNX(ctx, key, "locked", ttl).Result()
// …
rdb.Del(ctx, key)`,
	Good: `token := newToken() // 16 bytes from crypto/rand, hex-encoded
ok, err := rdb.SetNX(ctx, key, token, ttl).Result()
// …
unlockScript.Run(ctx, rdb, []string{key}, token)`,
	Since:    "v0.1.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-667"},
}

// Analyzer is LV204 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV204 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, func(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
		run(pass, res, cfg, r)
	})
}

// shared is why a value is the same for every holder.
type shared uint8

const (
	unique    shared = iota // not known to be shared
	constVal                // a constant (or nil)
	pid                     // the process ID, possibly formatted with constants
	host                    // the host name: one per host
	process                 // the host name with the process ID: one per process
	global                  // a package-level variable set once: one per process
	perSecond               // a Unix time in seconds: one per second
	oneRune                 // string(integer): one character
	theKey                  // the lock's own key
)

// use is an operation that releases or renews a lock, or checks its owner.
type use struct {
	op         *redisops.Op
	key        ast.Expr // op's key, or for a DEL of many, the slice of keys (KeySlice)
	verb, done string   // "releases", "released"; "renews", "renewed"
}

type checker struct {
	pass  *analysis.Pass
	res   *redisops.Result
	r     *report.Reporter
	locks *lockid.Locks
	cfg   *lvconfig.Config
	defs  map[*types.Var]ast.Expr // single definitions of variables, built on demand
}

func run(pass *analysis.Pass, res *redisops.Result, cfg *lvconfig.Config, r *report.Reporter) {
	c := &checker{pass: pass, res: res, r: r, locks: lockid.New(pass, res), cfg: cfg}
	c.reportCtors() // ctor.go
	if len(c.locks.Acquires()) == 0 {
		return
	}
	uses := c.uses()
	if len(uses) == 0 {
		return
	}
	ix := &useIndex{c: c, uses: uses, lockOf: make([]*lockid.Lock, len(uses)), known: make([]bool, len(uses))}
	reported := map[*redisops.Op]bool{}
	for _, a := range c.locks.Acquires() {
		if a.Value == nil {
			continue
		}
		why := c.classify(a.Value, 0)
		if a.Func.Scope().Same(a.Key(), a.Value) {
			why = theKey
		}
		if why == unique || c.locks.Role(a) != lockid.RoleLock {
			continue
		}
		var mine []use
		expires := !a.NoTTL
		for _, i := range ix.candidates(a) {
			u := uses[i]
			lk := ix.lock(i)
			if lk == nil || !c.sameLock(a, lk.Acquire) {
				continue
			}
			if u.op.Kind != redisops.Delete {
				expires = true
			}
			if !setsFirstTTL(pass.TypesInfo, u.op) {
				mine = append(mine, u)
			}
		}
		// A lock that never gets a TTL cannot pass to another holder while
		// this one holds it: its value needs no owner check.
		if !expires {
			continue
		}
		mine = c.dropFixtureUses(a, mine)
		if len(mine) == 0 {
			continue // a set-once marker: nothing needs its owner
		}
		reported[a] = true
		c.reportAcquire(a, why, mine)
	}
	c.reportTokens(ix, reported)
}

// reportTokens reports the owner checks in Lua whose token is shared:
// on locks whose acquire was not reported (reported), and in functions
// other than the acquire's, where the release looks safe on its own.
func (c *checker) reportTokens(ix *useIndex, reported map[*redisops.Op]bool) {
	for i, u := range ix.uses {
		s := u.op
		if s.Kind != redisops.Script {
			continue
		}
		sc := lua.Classify(s.ScriptSrc)
		if sc.TokenArg == 0 || sc.TokenArg > len(s.Args) || sc.Prefix {
			// A prefix compare (lua.UnlockPrefixSrc) names the owner
			// process on purpose: its argument is no token.
			continue
		}
		tok := s.Args[sc.TokenArg-1]
		if c.classify(tok, 0) == unique {
			continue
		}
		lk := ix.lock(i)
		if lk == nil || reported[lk.Acquire] && lk.Acquire.Func == s.Func {
			// The acquire's finding, in the same function, covers it.
			continue
		}
		d := analysis.Diagnostic{
			Pos: tok.Pos(),
			End: tok.End(),
			Message: fmt.Sprintf("the owner check of lock %s compares it with %s, a value every caller passes, so it %s other holders' locks; pass the lock's token",
				fixes.Text(c.pass.Fset, s.Key()), c.describe(tok), u.verb),
			Related: []analysis.RelatedInformation{{Pos: lk.Acquire.Call.Pos(), End: lk.Acquire.Call.End(), Message: "lock acquired here"}},
		}
		if reported[lk.Acquire] {
			// The acquire's token fix, when it turns this argument into
			// the token (a Lock/Unlock pair): the same fix as there.
			if p := tokenfix.For(c.pass, c.res, lk.Acquire, redisops.ReleaseOptions{DelEx: c.cfg.RedisAtLeast(8, 4)}, c.cfg.ModuleView()); p.OK && edits(p.Fix, tok) {
				d.SuggestedFixes = []analysis.SuggestedFix{p.Fix}
			} else if p.Why != "" {
				d.Message += " (no fix: " + p.Why + ")"
			} else {
				d.Message += " (no fix: the acquire's token fix does not reach this compare)"
			}
		} else {
			d.Message += " (no fix: the acquire writes no constant, so LV204's token plan does not cover this compare)"
		}
		c.r.Report(d)
	}
}

// edits reports whether fix replaces e.
func edits(fix analysis.SuggestedFix, e ast.Expr) bool {
	for _, te := range fix.TextEdits {
		if te.Pos == e.Pos() && te.End == e.End() {
			return true
		}
	}
	return false
}

// useIndex finds, on first need, the lock each use touches (it does not
// depend on the acquire examined: found once per use, not once per
// acquire and use) and the uses whose lock can be an acquire's.
type useIndex struct {
	c      *checker
	uses   []use
	lockOf []*lockid.Lock
	known  []bool
	// byFunc and byShape index the uses by their lock's acquire: its
	// function, and the shapes of its key; built on first need, in use
	// order.
	byFunc  map[*redisops.Func][]int
	byShape map[keyid.Anchor][]int
}

// lock is the lock use i touches, or nil.
func (x *useIndex) lock(i int) *lockid.Lock {
	if !x.known[i] {
		x.lockOf[i], x.known[i] = x.c.locks.Of(x.uses[i].op, x.uses[i].key), true
	}
	return x.lockOf[i]
}

// candidates are the uses whose lock can be a's (sameLock): same
// function, or a key of the same shape, in use order.
func (x *useIndex) candidates(a *redisops.Op) []int {
	if x.byFunc == nil {
		x.byFunc, x.byShape = map[*redisops.Func][]int{}, map[keyid.Anchor][]int{}
		for i := range x.uses {
			if lk := x.lock(i); lk != nil {
				b := lk.Acquire
				x.byFunc[b.Func] = append(x.byFunc[b.Func], i)
				for _, k := range keyid.Anchors(b.KeyForm()) {
					if s := x.byShape[k]; len(s) == 0 || s[len(s)-1] != i {
						x.byShape[k] = append(s, i)
					}
				}
			}
		}
	}
	out := slices.Clone(x.byFunc[a.Func])
	for _, k := range keyid.Anchors(a.KeyForm()) {
		out = append(out, x.byShape[k]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// uses lists the package's operations that release or renew a lock key:
// DEL/UNLINK, EXPIRE and the family, and Lua scripts that delete or expire
// a key (owner-checked or not).
func (c *checker) uses() []use {
	var out []use
	for _, o := range c.res.Ops {
		if o.Func == nil {
			continue
		}
		if o.Kind == redisops.Delete && o.KeySlice != nil {
			// Del(ctx, keys...): the locks of a batch (lockid's collect.go).
			out = append(out, use{op: o, key: o.KeySlice, verb: "releases", done: "released"})
			continue
		}
		if len(o.Keys) == 0 || o.KeysSpread {
			continue
		}
		switch o.Kind {
		case redisops.Delete:
			out = append(out, use{op: o, key: o.Key(), verb: "releases", done: "released"})
		case redisops.Expire:
			out = append(out, use{op: o, key: o.Key(), verb: "renews", done: "renewed"})
		case redisops.Script:
			if o.ScriptSrc == "" {
				continue
			}
			switch lua.Classify(o.ScriptSrc).Kind {
			case lua.CompareAndDelete, lua.UncheckedDelete:
				out = append(out, use{op: o, key: o.Key(), verb: "releases", done: "released"})
			case lua.CompareAndExpire, lua.UncheckedExpire:
				out = append(out, use{op: o, key: o.Key(), verb: "renews", done: "renewed"})
			}
		}
	}
	return out
}

// sameLock reports whether acquires a and b take the same lock: the same
// key in one function, or keys of the same shape.
func (c *checker) sameLock(a, b *redisops.Op) bool {
	if a == b {
		return true
	}
	if a.Func == b.Func {
		return keyid.Same(a.KeyForm(), b.KeyForm())
	}
	return keyid.SameShape(a.KeyForm(), b.KeyForm())
}

// dropFixtureUses drops, for an acquire in a _test.go file, the uses
// outside test files: a test fixture that plays another holder (SET NX
// "other-worker") is not released by the code under test, which releases
// its own acquire of a key built the same way.
func (c *checker) dropFixtureUses(a *redisops.Op, uses []use) []use {
	if !c.inTest(a) {
		return uses
	}
	return slices.DeleteFunc(uses, func(u use) bool { return !c.inTest(u.op) })
}

func (c *checker) inTest(o *redisops.Op) bool {
	return astx.InTest(c.pass.Fset, o.Call.Pos())
}

// setsFirstTTL reports whether the expire o follows, in the same function,
// an acquire of the same key that set no TTL: o gives the lock its TTL
// (LV101's finding), it does not renew it.
func setsFirstTTL(info *types.Info, o *redisops.Op) bool {
	if o.Kind != redisops.Expire {
		return false
	}
	f := o.Func
	for _, a := range f.OpsOn(o.KeyForm()) {
		if (a.Kind == redisops.Acquire || a.Kind == redisops.GetSet) && a.NoTTL && a.Call.Pos() < o.Call.Pos() &&
			keyid.Same(a.KeyForm(), o.KeyForm()) && f.Reachable(a.Call.Pos(), o.Call.Pos()) {
			return true
		}
	}
	return false
}

// classify says whether e is the same for every holder. Variables are
// followed to their one definition when never assigned again (depth
// bounds the chain).
func (c *checker) classify(e ast.Expr, depth int) shared {
	info := c.pass.TypesInfo
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && (tv.Value != nil || tv.IsNil()) {
		return constVal
	}
	switch e := e.(type) {
	case *ast.Ident:
		if depth >= 3 {
			return unique
		}
		v, ok := info.Uses[e].(*types.Var)
		if !ok || v.IsField() {
			return unique
		}
		def := c.definition(v)
		if def == nil {
			return unique
		}
		why := c.classify(def, depth+1)
		if why == unique && isGlobal(v) {
			// var owner = uuid.NewString(): random, but drawn once for
			// the process, so every goroutine of it writes the same.
			return global
		}
		return why
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() {
			if len(e.Args) != 1 {
				return unique
			}
			if isString(tv.Type) && isInteger(info.TypeOf(e.Args[0])) {
				return oneRune
			}
			return c.classify(e.Args[0], depth)
		}
		fn, ok := typeutil.Callee(info, e).(*types.Func)
		if !ok || fn.Pkg() == nil {
			return unique
		}
		switch fn.FullName() {
		case "os.Getpid":
			return pid
		case "os.Hostname":
			return host // its first result, through a variable (definition)
		case "(time.Time).Unix":
			return perSecond
		case "strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint", "fmt.Sprint", "fmt.Sprintf", "fmt.Sprintln":
			if e.Ellipsis.IsValid() {
				return unique
			}
			return c.combine(e.Args, depth)
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return c.combine([]ast.Expr{e.X, e.Y}, depth)
		}
	}
	return unique
}

// combine: a value formatted from constants and one shared value is as
// shared as that value; from constants alone, a constant. The host name
// with the process ID (or with a value set once per process) is one per
// process. Any other mix, and anything with a part not known to be
// shared, is unique.
func (c *checker) combine(parts []ast.Expr, depth int) shared {
	out := constVal
	for _, p := range parts {
		why := c.classify(p, depth)
		switch {
		case why == unique || why == oneRune || why == theKey:
			return unique
		case why == constVal || why == out:
		case out == constVal:
			out = why
		case perProcess(out) && perProcess(why):
			out = process
		default:
			return unique
		}
	}
	return out
}

// perProcess reports whether why is a value that stays the same for the
// life of a process.
func perProcess(why shared) bool {
	return why == pid || why == host || why == process || why == global
}

// definition returns the initializer of a local or package-level variable
// declared with one (v := e, var v = e) and never assigned again, nor
// having its address taken; otherwise nil. Parameters have none.
func (c *checker) definition(v *types.Var) ast.Expr {
	if c.defs == nil {
		c.defs = map[*types.Var]ast.Expr{}
		info := c.pass.TypesInfo
		assigned := map[*types.Var]bool{}
		mark := func(e ast.Expr) {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					assigned[v] = true
				}
			}
		}
		// A package-level variable declared with no value and set by
		// one assignment in an init function is defined by it.
		inits := map[*ast.AssignStmt]bool{}
		for _, f := range c.pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" && fd.Body != nil {
					for _, st := range fd.Body.List {
						if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
							inits[as] = true
						}
					}
				}
			}
		}
		initDefs := map[*types.Var]ast.Expr{}
		for n := range c.res.Inspector.PreorderSeq((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.IncDecStmt)(nil), (*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil)) {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && inits[n] && len(n.Lhs) == len(n.Rhs) {
						if v, ok := info.Uses[id].(*types.Var); ok && isGlobal(v) && initDefs[v] == nil && !assigned[v] {
							initDefs[v] = n.Rhs[i]
							continue
						}
					}
					mark(l)
					id, ok := l.(*ast.Ident)
					if !ok {
						continue
					}
					v, ok := info.Defs[id].(*types.Var)
					switch {
					case !ok:
					case len(n.Lhs) == len(n.Rhs):
						c.defs[v] = n.Rhs[i]
					case i == 0 && len(n.Rhs) == 1:
						// h, err := os.Hostname(): the call stands
						// for its first result.
						c.defs[v] = n.Rhs[0]
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					v, ok := info.Defs[id].(*types.Var)
					switch {
					case !ok:
					case len(n.Names) == len(n.Values):
						c.defs[v] = n.Values[i]
					case i == 0 && len(n.Values) == 1:
						c.defs[v] = n.Values[0]
					}
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
		for v, e := range initDefs {
			if _, declared := c.defs[v]; !declared && !assigned[v] {
				c.defs[v] = e
			}
		}
		for v := range assigned {
			delete(c.defs, v)
		}
	}
	return c.defs[v]
}

func isGlobal(v *types.Var) bool {
	return v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isInteger(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// describe is e's source text, with its value when e names a constant or
// a variable initialized with one.
func (c *checker) describe(e ast.Expr) string {
	text := fixes.Text(c.pass.Fset, e)
	value := e
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok {
			if def := c.definition(v); def != nil {
				value = def
			}
		}
	}
	tv := c.pass.TypesInfo.Types[ast.Unparen(value)]
	if tv.Value != nil && tv.Value.Kind() != constant.Unknown {
		if v := tv.Value.ExactString(); v != text {
			return fmt.Sprintf("%s (%s)", text, v)
		}
	}
	return text
}

func (c *checker) reportAcquire(a *redisops.Op, why shared, uses []use) {
	key := fixes.Text(c.pass.Fset, a.Key())
	var verbs []string
	for _, u := range uses {
		if !slices.Contains(verbs, u.done) {
			verbs = append(verbs, u.done)
		}
	}
	done := strings.Join(verbs, " and ")
	value := c.sharedText(why, a.Value)
	d := analysis.Diagnostic{
		Pos: a.Value.Pos(),
		End: a.Value.End(),
		Message: fmt.Sprintf("lock %s is acquired with %s and %s, so no owner check can tell holders apart; use a random token",
			key, value, done),
	}
	if p := tokenfix.For(c.pass, c.res, a, redisops.ReleaseOptions{DelEx: c.cfg.RedisAtLeast(8, 4)}, c.cfg.ModuleView()); p.OK {
		d.SuggestedFixes = []analysis.SuggestedFix{p.Fix}
	} else {
		why := p.Why
		if why == "" {
			why = "can't rewrite this acquire"
		}
		d.Message += " (no fix: " + why + ")"
	}
	for i, u := range uses {
		if i == 3 {
			break
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: u.op.Call.Pos(), End: u.op.Call.End(), Message: u.done + " here"})
	}
	c.r.Report(d)
}

// sharedText says what value e is and why it is shared (why).
func (c *checker) sharedText(why shared, e ast.Expr) string {
	switch why {
	case constVal:
		if tv := c.pass.TypesInfo.Types[ast.Unparen(e)]; tv.Value != nil || tv.IsNil() {
			return fmt.Sprintf("the constant %s", c.describe(e))
		}
		if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(call.Args) == 1 && c.pass.TypesInfo.Types[call.Fun].IsType() {
			// []byte("locked"): a conversion of a constant.
			return c.sharedText(why, call.Args[0])
		}
		return fmt.Sprintf("%s, a variable only ever holding a constant", c.describe(e))
	case theKey:
		return "its own key as the value"
	case pid:
		return fmt.Sprintf("the process ID (%s), which repeats across hosts", fixes.Text(c.pass.Fset, e))
	case host:
		return fmt.Sprintf("the host name %s (shared by its processes)", fixes.Text(c.pass.Fset, e))
	case process:
		return fmt.Sprintf("%s (one per process, shared by its goroutines)", fixes.Text(c.pass.Fset, e))
	case global:
		return fmt.Sprintf("%s (set once per process, shared by its goroutines)", fixes.Text(c.pass.Fset, e))
	case perSecond:
		return fmt.Sprintf("%s (seconds: the same for all who lock in that second)", fixes.Text(c.pass.Fset, e))
	case oneRune:
		return fmt.Sprintf("%s, a one-character string (a rune, not digits)", fixes.Text(c.pass.Fset, e))
	}
	return ""
}
