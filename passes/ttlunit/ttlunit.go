package ttlunit

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/lockname"
	"github.com/lockvet/lockvet/passes/internal/report"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Rule describes the check.
var Rule = &rules.Rule{
	ID:    "LV104",
	Name:  "ttlunit",
	Title: "TTL in the wrong unit: nanoseconds, a point in time, or a timeout that deletes",
	Why: `A time.Duration counts nanoseconds. SetNX(ctx, key, token, 30) compiles and
asks for a 30ns lock: go-redis v8/v9 round it up to 1 ms (1 s for EXPIRE and
SETEX), so the lock is gone before the work starts and a second holder takes
it; go-redis v6/v7 send 0, which makes SET fail and EXPIRE delete the key.
The TTLs lock libraries take are time.Duration values too (redsync's
WithExpiry, bsm/redislock's Obtain and Refresh, rueidislock's KeyValidity):
WithExpiry(30) is a 30ns lock, sent as 1 ms or as 0.
time.Duration(cfg.LockSeconds) has the same effect: a conversion is not a
unit (a number the package already scales to nanoseconds, in a function that
returns n * int64(time.Second) or in a field or package variable it assigns
so somewhere, is not reported). A TTL computed from Unix()/UnixNano() is the current date read as a
length of time. A time.Duration passed as a Lua script argument reaches the
script as nanoseconds, so PEXPIRE ARGV[2] with 30s sets about 347 days (and
go-redis v6/v7 cannot encode it at all); this is reported only when lockvet
can read the script (a constant, or a file embedded with //go:embed) and the
script passes that argument whole to a timeout: a script it cannot read
(EVALSHA, a source passed in) may not read the argument at all. The same holds where a client takes
a plain count (redigo's EX/PX arguments, memcached's Expiration and Touch):
int64(ttl) or int32(ttl) of a time.Duration is a count of nanoseconds, 30s
becomes 30000000000 seconds or wraps around in 32 bits. Units also cross
between the conversion and the option: a count of milliseconds given to EX
or ExSeconds ("EX", int(ttl/time.Millisecond); ExSeconds(ttl.Milliseconds()))
keeps the key 1000 times longer, a count of seconds given to PX (int64(
ttl.Seconds())) a thousandth as long, and the float64 of ttl.Seconds() given
to EX goes out as decimal text that Redis rejects unless it is whole. EXPIRE
with a TTL of 0 or less deletes the key at once, not "no expiry": Del deletes
it, Persist drops its TTL. A TTL below the unit the client truncates to
(500ms where it sends whole seconds) is sent as 0: Redis rejects a SET with
an expire time of 0, and an EXPIRE of 0 deletes the key. A time.Duration
given where a command takes a whole number of seconds or milliseconds goes
out as the client formats it: text such as "30s", which Redis rejects, or a
count of nanoseconds. A count of milliseconds given where seconds are taken
keeps the key 1000 times longer (a 30s TTL becomes 8h20m); a count of
seconds given where milliseconds are taken, a thousandth as long. A 1.5s
TTL as a float64 of seconds goes out as decimal text that Redis rejects.`,
	Fix: `Write the unit: 30 * time.Second, time.Duration(n) * time.Second; use
time.Until(deadline) for a deadline; pass ttl.Milliseconds() to a script that
uses PEXPIRE or PX (int64(ttl / time.Second) for EXPIRE or EX). The suggested
fix is offered only where the intended unit is certain: .Milliseconds() for a
script argument the script uses as a PEXPIRE/PX timeout, ttl for
time.Duration(ttl.Seconds()) and its siblings, and time.Duration(n) *
time.Second (or Millisecond, Minute, Hour) for an integer n whose name ends
in its unit (lockSeconds, TimeoutMs, ttl_sec); where the name says nothing
(expire, value), the message says so and no fix is offered. A count given to the
other option word keeps its value and gets the word of its unit ("EX", ms
becomes "PX", ms; ExSeconds(ms) becomes PxMilliseconds(ms)). A sub-second TTL where the
client sends whole seconds: pass at least 1s, or use the millisecond form
(PX). A time.Duration where a command takes a count: int64(ttl /
time.Second), or ttl.Milliseconds() for the millisecond form (PX, PEXPIRE,
PSETEX). int64(ttl) or int32(ttl): divide by the unit first, and keep a TTL
below one unit from becoming 0 (which deletes the key, or means no expiry
to memcached). A script that gives the argument to EXPIRE/EX takes
int64(ttl / time.Second); one that gives it to both a millisecond and a
seconds timeout takes the two as separate arguments; one that gives it to
a command taking a point in time (PEXPIREAT, EXPIREAT, PXAT, EXAT) takes
time.Now().Add(ttl).UnixMilli(), or .Unix() for the seconds forms.`,
	Bad:      `ok, err := rdb.SetNX(ctx, key, token, 30).Result()`,
	Good:     `ok, err := rdb.SetNX(ctx, key, token, 30*time.Second).Result()`,
	Since:    "v0.1.0",
	Severity: rules.Error,
	CWE:      []string{"CWE-682"},
}

// Analyzer is LV104 with the default configuration.
var Analyzer = New(redisops.Analyzer, nil)

// New returns LV104 reading the operations of ops, configured by cfg.
func New(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer {
	return report.Analyzer(Rule, ops, cfg, func(pass *analysis.Pass, res *redisops.Result, r *report.Reporter) {
		c := &checker{pass: pass, res: res, r: r}
		for _, op := range res.Ops {
			switch op.Kind {
			case redisops.Acquire, redisops.Write, redisops.Expire, redisops.LockTTL:
				c.ttl(op)
			case redisops.Script:
				c.scriptArgs(op)
			}
		}
	})
}

// maxDepth bounds how far constants and local variables are followed.
const maxDepth = 4

type checker struct {
	pass  *analysis.Pass
	res   *redisops.Result
	r     *report.Reporter
	nanos map[*types.Var]bool // fields and package variables assigned nanoseconds, built when first asked
}

// ttl checks the TTL argument of an acquire, write or expire.
func (c *checker) ttl(op *redisops.Op) {
	e := op.TTL
	if e == nil || op.TTLUnit == redisops.NoUnit || op.TTLUnit == redisops.Time {
		return
	}
	info := c.pass.TypesInfo
	if (op.TTLUnit == redisops.Seconds || op.TTLUnit == redisops.Millis) && isDuration(info.TypeOf(e)) {
		c.durationCount(op, e)
		return
	}
	if op.TTLUnit == redisops.Seconds || op.TTLUnit == redisops.Millis {
		if x := c.nanosConv(e); x != nil {
			c.nanosCount(op, e, x)
			return
		}
		if c.crossed(op, e) {
			return
		}
	}
	tv := info.Types[e]
	if tv.Value != nil && tv.Value.Kind() == constant.Int {
		if op.DeletesKey() {
			c.expireDeletes(op, tv.Value)
			return
		}
		v, exact := constant.Int64Val(tv.Value)
		if op.TTLUnit == redisops.Duration && exact && v > 0 && v < int64(time.Millisecond) && isDuration(tv.Type) {
			if decl, ok := c.unitless(e, 0); ok {
				c.nanoConst(op, v, decl)
				return
			}
		}
		if op.TTLUnit == redisops.Duration && exact && v > 0 && v < int64(op.TTLTrunc) && isDuration(tv.Type) {
			c.truncated(op, e, nil, nil, v)
		}
		return
	}
	// Follow a local variable to its only definition.
	src, def := c.origin(op, e)
	if abs := c.absolute(op, src, 0); abs != nil {
		c.absoluteTTL(op, e, src, def, abs)
		return
	}
	if op.TTLUnit != redisops.Duration {
		return
	}
	tv = info.Types[src]
	if tv.Value != nil && tv.Value.Kind() == constant.Int {
		v, exact := constant.Int64Val(tv.Value)
		if exact && v > 0 && v < int64(time.Millisecond) && isDuration(tv.Type) {
			if _, ok := c.unitless(src, 0); ok {
				c.nanoVar(op, e, src, def, v)
				return
			}
		}
		if exact && v > 0 && v < int64(op.TTLTrunc) && isDuration(tv.Type) {
			c.truncated(op, e, src, def, v)
		}
		return
	}
	if conv, x := c.durationConv(src); conv != nil {
		c.bareConversion(op, e, conv, x, def)
	}
}

// expireDeletes reports an expire whose constant TTL is ≤ 0.
func (c *checker) expireDeletes(op *redisops.Op, v constant.Value) {
	key := "the key"
	if k := op.Key(); k != nil {
		key = fixes.Text(c.pass.Fset, k)
	}
	c.r.Report(analysis.Diagnostic{
		Pos: op.TTL.Pos(),
		End: op.TTL.End(),
		Message: fmt.Sprintf("%s with a TTL of %s deletes %s at once, not \"no expiry\"; call Del or Persist, or pass the TTL you meant (no fix: what was meant is not known)",
			op.Method, c.valueText(op.TTL, v), key),
	})
}

// valueText is e as written, followed by its value when that differs:
// "0", "noTTL (0)", "-2 * time.Second (-2s)".
func (c *checker) valueText(e ast.Expr, v constant.Value) string {
	text := fixes.Text(c.pass.Fset, e)
	if literal(e) {
		return text
	}
	val := v.ExactString()
	if n, exact := constant.Int64Val(v); exact && isDuration(c.pass.TypesInfo.TypeOf(e)) && n != 0 {
		val = time.Duration(n).String()
	}
	if text == val {
		return text
	}
	return text + " (" + val + ")"
}

// literal reports whether e is a number literal, possibly negated.
func literal(e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		e = ast.Unparen(u.X)
	}
	_, ok := e.(*ast.BasicLit)
	return ok
}

// consequence says what a sub-millisecond TTL does for op's kind.
func consequence(op *redisops.Op) string {
	switch op.Kind {
	case redisops.Acquire:
		return "the lock expires within 1 ms"
	case redisops.Expire:
		return op.Method + " sets the client's shortest TTL, or deletes the key"
	case redisops.LockTTL:
		return "the lock library's TTL is at most 1 ms"
	}
	return "the key expires within the client's minimum TTL"
}

// nanoConst reports a constant TTL below 1 ms written without a unit.
// decl is the named constant's declaration, if the TTL names one.
func (c *checker) nanoConst(op *redisops.Op, v int64, decl *constDecl) {
	text := fixes.Text(c.pass.Fset, op.TTL)
	advice := fmt.Sprintf("write %d * time.Second or %d * time.Millisecond", v, v)
	d := analysis.Diagnostic{Pos: op.TTL.Pos(), End: op.TTL.End()}
	if decl != nil {
		advice = fmt.Sprintf("declare %s as %d * time.Second or %d * time.Millisecond", decl.name, v, v)
		if decl.pos.IsValid() {
			d.Related = []analysis.RelatedInformation{{Pos: decl.pos, End: decl.end, Message: decl.name + " declared here without a time unit"}}
		}
	}
	d.Message = fmt.Sprintf("TTL %s is %s (a time.Duration counts nanoseconds), so %s; %s (no fix: seconds or milliseconds, the number does not say)",
		text, time.Duration(v), consequence(op), advice)
	c.r.Report(d)
}

// nanoVar reports a local variable whose only value is a constant below
// 1 ms written without a unit.
func (c *checker) nanoVar(op *redisops.Op, e, src ast.Expr, def *ast.Ident, v int64) {
	c.r.Report(analysis.Diagnostic{
		Pos: e.Pos(),
		End: e.End(),
		Message: fmt.Sprintf("TTL %s is %s (a time.Duration counts nanoseconds), so %s; write %d * time.Second or %d * time.Millisecond (no fix: seconds or milliseconds, the number does not say)",
			fixes.Text(c.pass.Fset, e), time.Duration(v), consequence(op), v, v),
		Related: []analysis.RelatedInformation{{Pos: src.Pos(), End: src.End(), Message: def.Name + " set here without a time unit"}},
	})
}

// truncated reports a positive constant TTL below the unit the client
// truncates the operation's time.Duration to (op.TTLTrunc: whole seconds
// for a seconds command), which it therefore sends as 0. src and def are
// the defining expression and the variable when e is a local variable.
func (c *checker) truncated(op *redisops.Op, e, src ast.Expr, def *ast.Ident, v int64) {
	unit, advice := "milliseconds", "pass at least 1ms"
	if op.TTLTrunc == time.Second {
		unit, advice = "seconds", "pass at least 1s, or use PX"
	} else if op.TTLTrunc != time.Millisecond {
		unit, advice = "multiples of "+op.TTLTrunc.String(), "pass at least "+op.TTLTrunc.String()
	}
	var what string
	switch op.Kind {
	case redisops.Acquire:
		what = "Redis rejects the SET, so the lock is never acquired"
	case redisops.Expire:
		what = "an expire of 0 deletes the key"
	case redisops.LockTTL:
		what = "the acquire fails or the lock expires at once"
	default:
		what = "Redis rejects the SET, so the write fails"
	}
	d := analysis.Diagnostic{
		Pos: e.Pos(),
		End: e.End(),
		Message: fmt.Sprintf("TTL %s is %s, sent as 0 whole %s: %s; %s (no fix: the TTL meant is not known)",
			fixes.Text(c.pass.Fset, e), time.Duration(v), unit, what, advice),
	}
	if def != nil {
		d.Related = []analysis.RelatedInformation{{Pos: src.Pos(), End: src.End(), Message: def.Name + " set here"}}
	}
	c.r.Report(d)
}

// absoluteTTL reports a TTL computed from an absolute time.
func (c *checker) absoluteTTL(op *redisops.Op, e, src ast.Expr, def *ast.Ident, unix *ast.CallExpr) {
	d := analysis.Diagnostic{
		Pos: e.Pos(),
		End: e.End(),
		Message: fmt.Sprintf("TTL %s is computed from %s, a point in time, not a length of time; pass time.Until(deadline), or use ExpireAt or PXAT (no fix: not built for a TTL computed from a point in time)",
			fixes.Text(c.pass.Fset, e), fixes.Text(c.pass.Fset, unix)),
	}
	if def != nil {
		d.Related = []analysis.RelatedInformation{{Pos: src.Pos(), End: src.End(), Message: def.Name + " computed here"}}
	}
	c.r.Report(d)
}

// bareConversion reports time.Duration(x) with x a plain number.
func (c *checker) bareConversion(op *redisops.Op, e ast.Expr, conv *ast.CallExpr, x ast.Expr, def *ast.Ident) {
	fset := c.pass.Fset
	xt := fixes.Text(fset, x)
	d := analysis.Diagnostic{Pos: e.Pos(), End: e.End()}
	if def != nil {
		d.Related = []analysis.RelatedInformation{{Pos: conv.Pos(), End: conv.End(), Message: def.Name + " converted here without a unit"}}
	}
	// time.Duration(ttl.Seconds()): the receiver is the TTL that was meant.
	if recv, method := durationMethod(c.pass.TypesInfo, x); recv != nil {
		rt := fixes.Text(fset, recv)
		d.Message = fmt.Sprintf("TTL %s reads %s (a count of %s) as nanoseconds, about %s too short; pass %s itself",
			fixes.Text(fset, e), xt, strings.ToLower(method), factor(method), rt)
		if def == nil {
			d.SuggestedFixes = []analysis.SuggestedFix{{
				Message: "Pass " + rt,
				TextEdits: []analysis.TextEdit{
					{Pos: conv.Pos(), End: recv.Pos()},
					{Pos: recv.End(), End: conv.End()},
				},
			}}
		}
		c.r.Report(d)
		return
	}
	unit, known := namedUnit(x)
	if !known {
		d.Message = fmt.Sprintf("TTL %s reads %s as nanoseconds, so a count of seconds becomes about 1 ms; multiply by its unit, e.g. time.Duration(%s) * time.Second (no fix: %s does not say its unit)",
			fixes.Text(fset, e), xt, xt, lastName(x))
		c.r.Report(d)
		return
	}
	d.Message = fmt.Sprintf("TTL %s reads %s, a count of %s, as nanoseconds (about 1 ms); write time.Duration(%s) * time.%s",
		fixes.Text(fset, e), xt, strings.ToLower(unit)+"s", xt, unit)
	if sel, ok := ast.Unparen(conv.Fun).(*ast.SelectorExpr); ok && isInteger(c.pass.TypesInfo.TypeOf(x)) {
		if pkg, ok := sel.X.(*ast.Ident); ok {
			repl := fixes.Text(fset, conv) + " * " + pkg.Name + "." + unit
			d.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "Multiply by " + pkg.Name + "." + unit,
				TextEdits: []analysis.TextEdit{fixes.Replace(conv, repl)},
			}}
		}
	}
	c.r.Report(d)
}

// namedUnit is the unit a count x is in when the last word of its last
// name says so (lockSeconds, TimeoutMs, ttl_sec, leaseMinutes), as the name
// of a time.Duration constant without its package (Millisecond, Second,
// Minute, Hour); known is false when the name says nothing.
func namedUnit(x ast.Expr) (unit string, known bool) {
	words := lockname.Words(lastName(x))
	if len(words) == 0 {
		return "", false
	}
	switch words[len(words)-1] {
	case "ms", "msec", "msecs", "milli", "millis", "millisecond", "milliseconds":
		return "Millisecond", true
	case "s", "sec", "secs", "second", "seconds":
		if len(words) == 1 && words[0] == "s" {
			return "", false // a variable named s says nothing
		}
		return "Second", true
	case "min", "mins", "minute", "minutes":
		return "Minute", true
	case "h", "hr", "hrs", "hour", "hours":
		if len(words) == 1 && words[0] == "h" {
			return "", false
		}
		return "Hour", true
	}
	return "", false
}

// lastName is the last identifier in x (cfg.TimeoutMs: TimeoutMs).
func lastName(x ast.Expr) string {
	var last string
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			last = id.Name
		}
		return true
	})
	return last
}

// factor is how many times too short a count in unit is when read as
// nanoseconds.
func factor(unit string) string {
	switch unit {
	case "Hours":
		return "3.6e12 times"
	case "Minutes":
		return "6e10 times"
	case "Seconds":
		return "a billion times"
	case "Milliseconds":
		return "a million times"
	}
	return "a thousand times"
}

// origin follows e, when it is a local variable of op's function with a
// single definition and no other assignment, to the defining expression.
// It returns e itself and a nil ident otherwise.
func (c *checker) origin(op *redisops.Op, e ast.Expr) (ast.Expr, *ast.Ident) {
	var def *ast.Ident
	for range maxDepth {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || op.Func == nil {
			break
		}
		rhs := singleDef(c.pass.TypesInfo, op.Func.Body, id)
		if rhs == nil {
			break
		}
		e, def = rhs, id
	}
	return e, def
}

// singleDef returns the value a local variable of body is defined with,
// when that is its only assignment anywhere in body and its address is
// never taken.
func singleDef(info *types.Info, body *ast.BlockStmt, id *ast.Ident) ast.Expr {
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || body == nil {
		return nil
	}
	rhs, _ := astx.SoleDef(info, body, v)
	return rhs
}

// constDecl is a named constant a TTL refers to, and where it is
// declared (no position for another package's constant).
type constDecl struct {
	name     string
	pos, end token.Pos
}

// unitless reports whether the constant expression e is written without
// any of package time's constants, following this package's named
// constants to their declarations. Constants of other packages are not
// followed: their spelling is unknown, so they count as having a unit.
// decl is the first named constant e refers to, if any.
func (c *checker) unitless(e ast.Expr, depth int) (decl *constDecl, ok bool) {
	if depth > maxDepth {
		return nil, false
	}
	ok = true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		id, isID := n.(*ast.Ident)
		if !isID {
			return true
		}
		k, isConst := c.pass.TypesInfo.Uses[id].(*types.Const)
		if !isConst || k.Pkg() == nil { // iota, true, false
			return true
		}
		if k.Pkg() != c.pass.Pkg {
			// An untyped constant of another package has no unit
			// whatever its spelling (any time constant would have typed
			// it); a typed one might be 500 * time.Microsecond.
			if b, isBasic := k.Type().(*types.Basic); !isBasic || b.Info()&types.IsUntyped == 0 {
				ok = false
				return false
			}
			if decl == nil {
				decl = &constDecl{name: k.Pkg().Name() + "." + k.Name()}
			}
			return true
		}
		val := c.constValueExpr(k)
		if val == nil {
			ok = false
			return false
		}
		if _, inner := c.unitless(val, depth+1); !inner {
			ok = false
			return false
		}
		if decl == nil {
			decl = &constDecl{name: k.Name(), pos: k.Pos(), end: k.Pos() + token.Pos(len(k.Name()))}
		}
		return true
	})
	if !ok {
		return nil, false
	}
	return decl, true
}

// constValueExpr returns the expression a constant of this package is
// declared with (the repeated expression for an implicit one in a const
// block), or nil.
func (c *checker) constValueExpr(k *types.Const) ast.Expr {
	for _, f := range c.pass.Files {
		if k.Pos() < f.FileStart || k.Pos() >= f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, k.Pos(), k.Pos())
		var spec *ast.ValueSpec
		var decl *ast.GenDecl
		for _, n := range path {
			switch n := n.(type) {
			case *ast.ValueSpec:
				if spec == nil {
					spec = n
				}
			case *ast.GenDecl:
				if decl == nil {
					decl = n
				}
			}
		}
		if spec == nil || decl == nil || decl.Tok != token.CONST {
			return nil
		}
		idx := -1
		for i, name := range spec.Names {
			if c.pass.TypesInfo.Defs[name] == k {
				idx = i
			}
		}
		if idx < 0 {
			return nil
		}
		// An implicit constant repeats the last explicit expression list.
		var values []ast.Expr
		for _, s := range decl.Specs {
			vs := s.(*ast.ValueSpec)
			if len(vs.Values) > 0 {
				values = vs.Values
			}
			if vs == spec {
				break
			}
		}
		if idx < len(values) {
			return values[idx]
		}
		return nil
	}
	return nil
}

// durationConv matches e = time.Duration(x) with x a plain number: not a
// constant, of a basic numeric type, and with no time.Duration operand,
// no constant of package time and no name that says nanoseconds in it.
func (c *checker) durationConv(e ast.Expr) (*ast.CallExpr, ast.Expr) {
	info := c.pass.TypesInfo
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil, nil
	}
	if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() || !isDuration(tv.Type) {
		return nil, nil
	}
	x := call.Args[0]
	tv := info.Types[x]
	if tv.Value != nil {
		return nil, nil
	}
	if b, ok := types.Unalias(tv.Type).(*types.Basic); !ok || b.Info()&types.IsNumeric == 0 {
		return nil, nil
	}
	if _, m := durationMethod(info, x); m != "" {
		return call, x
	}
	if !plainNumber(info, x) || c.nanosCall(x) || c.nanosVar(x) {
		return nil, nil
	}
	return call, x
}

// nanosCall reports whether x calls a function of the package that
// computes its result in nanoseconds: a returned expression, or an
// assignment to a returned variable, that is no plain number
// (timeout = minutes * int64(time.Minute); return timeout). One level
// deep: the function's own callees are not followed.
func (c *checker) nanosCall(x ast.Expr) bool {
	info := c.pass.TypesInfo
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		fn := typeutil.StaticCallee(info, call)
		if fn == nil || fn.Pkg() != c.pass.Pkg {
			return true
		}
		if decl := c.res.Decl(c.pass.TypesInfo, fn); decl != nil && decl.Body != nil && !returnsPlain(info, decl.Body) {
			found = true
		}
		return !found
	})
	return found
}

// nanosVar reports whether x reads a struct field or a package-level
// variable that the package assigns a value in nanoseconds somewhere
// (rp.maxlifetime = n * int64(time.Second), Config{TTL: int64(d)}): the
// conversion back to time.Duration keeps its unit.
func (c *checker) nanosVar(x ast.Expr) bool {
	info := c.pass.TypesInfo
	if c.nanos == nil {
		c.nanos = map[*types.Var]bool{}
		astx.FieldWrites(info, c.res.Inspector, func(f *types.Var, value ast.Expr, _ ast.Node) {
			if value != nil && nanosExpr(info, value) {
				c.nanos[f] = true
			}
		})
		// Package variables: var lease = 30 * int64(time.Second), or
		// lease = ... in a function.
		pkgVar := func(id *ast.Ident, value ast.Expr) {
			if v, ok := info.ObjectOf(id).(*types.Var); ok && v.Parent() == c.pass.Pkg.Scope() && nanosExpr(info, value) {
				c.nanos[v] = true
			}
		}
		for n := range c.res.Inspector.PreorderSeq((*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)) {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if id := astx.IdentOf(l); id != nil {
							pkgVar(id, n.Rhs[i])
						}
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i, id := range n.Names {
						pkgVar(id, n.Values[i])
					}
				}
			}
		}
	}
	if len(c.nanos) == 0 {
		return false
	}
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if f := astx.FieldOf(info, n); f != nil && c.nanos[f] {
				found = true
			}
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok && c.nanos[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// nanosExpr reports whether e computes a count of nanoseconds: a
// time.Duration converted to a number (int64(d)), d.Nanoseconds(), or a
// product with a time.Duration or a constant of package time
// (n * int64(time.Second)). A quotient by one (d / time.Millisecond) is a
// count of that unit, not of nanoseconds.
func nanosExpr(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() {
			if len(e.Args) != 1 {
				return false
			}
			if b, ok := ast.Unparen(e.Args[0]).(*ast.BinaryExpr); ok && b.Op == token.QUO {
				return false // int64(d / time.Millisecond) counts milliseconds
			}
			return isDuration(info.TypeOf(e.Args[0])) || nanosExpr(info, e.Args[0])
		}
		fn, ok := typeutil.Callee(info, e).(*types.Func)
		return ok && isTimeMethod(fn, "Duration") && fn.Name() == "Nanoseconds"
	case *ast.BinaryExpr:
		if e.Op != token.MUL {
			return false
		}
		return timeFactor(info, e.X) || timeFactor(info, e.Y)
	}
	return false
}

// timeFactor reports whether e, a factor of a product, is a
// time.Duration or a constant of package time, possibly converted.
func timeFactor(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
			return timeFactor(info, call.Args[0])
		}
	}
	if isDuration(info.TypeOf(e)) {
		return true
	}
	var id *ast.Ident
	switch e := e.(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	}
	k, ok := info.Uses[id].(*types.Const)
	return ok && k.Pkg() != nil && k.Pkg().Path() == "time"
}

// returnsPlain reports whether every value body returns is a plain
// number: each returned expression, and each value assigned to a local
// variable that a return statement returns. Function literals inside
// body are not its returns.
func returnsPlain(info *types.Info, body *ast.BlockStmt) bool {
	returned := map[types.Object]bool{}
	plain := true
	inspectOwn(body, func(n ast.Node) {
		r, ok := n.(*ast.ReturnStmt)
		if !ok {
			return
		}
		for _, e := range r.Results {
			if id, ok := ast.Unparen(e).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					returned[v] = true
					continue
				}
			}
			if !plainNumber(info, e) {
				plain = false
			}
		}
	})
	if !plain || len(returned) == 0 {
		return plain
	}
	inspectOwn(body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return
		}
		for i, l := range as.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if ok && returned[info.ObjectOf(id)] && !plainNumber(info, as.Rhs[i]) {
				plain = false
			}
		}
	})
	return plain
}

// inspectOwn calls f for each node of body outside its function literals.
func inspectOwn(body *ast.BlockStmt, f func(ast.Node)) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n != nil {
			f(n)
		}
		return true
	})
}

// plainNumber reports whether x carries no sign of being in nanoseconds
// already: no time.Duration operand (other than as the receiver of a
// method such as Seconds), no call of Nanoseconds, no constant of package
// time, and no identifier that names nanoseconds.
func plainNumber(info *types.Info, x ast.Expr) bool {
	plain := true
	receivers := map[ast.Expr]bool{}
	ast.Inspect(x, func(n ast.Node) bool {
		if !plain {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && isTimeMethod(fn, "Duration") {
				if fn.Name() == "Nanoseconds" {
					plain = false
					return false
				}
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
					receivers[sel.X] = true
				}
			}
		case *ast.Ident:
			if nanoName(n.Name) {
				plain = false
				return false
			}
			if k, ok := info.Uses[n].(*types.Const); ok && k.Pkg() != nil && k.Pkg().Path() == "time" {
				plain = false
				return false
			}
		}
		if e, ok := n.(ast.Expr); ok && !receivers[e] {
			if tv, ok := info.Types[e]; ok && !tv.IsType() && isDuration(tv.Type) {
				plain = false
				return false
			}
		}
		return true
	})
	return plain
}

// nanoName reports whether an identifier says its value is in
// nanoseconds (nanos, ttlNanos, ns, timeoutNs, ttl_ns).
func nanoName(name string) bool {
	return strings.Contains(strings.ToLower(name), "nano") || name == "ns" ||
		strings.HasSuffix(name, "Ns") || strings.HasSuffix(name, "NS") || strings.HasSuffix(name, "_ns")
}

// durationMethod matches x = d.Seconds() (or Minutes, Hours, Milliseconds,
// Microseconds) on a time.Duration d, possibly converted to another
// number type, and returns d and the method name.
func durationMethod(info *types.Info, x ast.Expr) (ast.Expr, string) {
	x = ast.Unparen(x)
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil, ""
	}
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		return durationMethod(info, call.Args[0])
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || !isTimeMethod(fn, "Duration") || len(call.Args) != 0 {
		return nil, ""
	}
	switch fn.Name() {
	case "Hours", "Minutes", "Seconds", "Milliseconds", "Microseconds":
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || !isDuration(info.TypeOf(sel.X)) {
			return nil, ""
		}
		return sel.X, fn.Name()
	}
	return nil, ""
}

// absolute returns the Unix*() call that makes e a point in time rather
// than a length of time (t.Unix(), time.Duration(t.UnixNano()),
// time.Duration(t.Unix()+30)*time.Second), or nil. A difference of two
// points in time is a length of time, and so may be the difference with
// anything not known to be a constant.
func (c *checker) absolute(op *redisops.Op, e ast.Expr, depth int) *ast.CallExpr {
	if depth > maxDepth {
		return nil
	}
	info := c.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() {
			if len(e.Args) == 1 {
				return c.absolute(op, e.Args[0], depth+1)
			}
			return nil
		}
		if fn, ok := typeutil.Callee(info, e).(*types.Func); ok && isTimeMethod(fn, "Time") {
			switch fn.Name() {
			case "Unix", "UnixMilli", "UnixMicro", "UnixNano":
				return e
			}
		}
	case *ast.BinaryExpr:
		x, y := c.absolute(op, e.X, depth+1), c.absolute(op, e.Y, depth+1)
		switch e.Op {
		case token.ADD, token.MUL:
			if x != nil {
				return x
			}
			return y
		case token.SUB:
			// t.Unix() - 30 is a point in time; t.Unix() - start may be
			// a length of time when start is one too.
			if tv := info.Types[e.Y]; y == nil && tv.Value != nil {
				return x
			}
		case token.QUO:
			return x
		}
	case *ast.Ident:
		if op.Func != nil {
			if rhs := singleDef(info, op.Func.Body, e); rhs != nil {
				return c.absolute(op, rhs, depth+1)
			}
		}
	}
	return nil
}

// isDuration reports whether t is time.Duration.
func isDuration(t types.Type) bool {
	return isTimeType(t, "Duration")
}

func isTimeType(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == name
}

// isTimeMethod reports whether fn is a method of time.<recv>.
func isTimeMethod(fn *types.Func, recv string) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return isTimeType(t, recv)
}
