package ttlunit

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/redisops"
)

// durationCount reports a time.Duration passed where the command takes a
// whole number of seconds or milliseconds (op.TTLUnit Seconds or Millis):
// a client that takes its arguments as interface values does not convert
// it, so it goes out as the client formats it, text such as "30s" that
// Redis rejects, or a count of nanoseconds. The fix is offered where the
// count is certain: .Milliseconds() in a milliseconds slot (not for a
// constant below 1ms, which would become 0), and int64(ttl / time.Second)
// in a seconds slot for a constant that is a whole number of seconds.
func (c *checker) durationCount(op *redisops.Op, e ast.Expr) {
	fset, info := c.pass.Fset, c.pass.TypesInfo
	text := fixes.Text(fset, e)
	recv := text
	if !primary(e) {
		recv = "(" + text + ")"
	}
	unit, advice := "seconds", fmt.Sprintf("pass int64(%s / time.Second)", recv)
	if op.TTLUnit == redisops.Millis {
		unit, advice = "milliseconds", fmt.Sprintf("pass %s.Milliseconds()", recv)
	}
	d := analysis.Diagnostic{
		Pos: e.Pos(),
		End: e.End(),
		Message: fmt.Sprintf("TTL %s is a time.Duration where %s takes a whole number of %s, and goes out as \"30s\" or nanoseconds; %s",
			text, op.Method, unit, advice),
	}
	var ns *int64
	if tv := info.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.Int {
		if v, exact := constant.Int64Val(tv.Value); exact {
			ns = &v
		}
	}
	switch op.TTLUnit {
	case redisops.Millis:
		if ns == nil || *ns >= int64(time.Millisecond) {
			d.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "Pass " + recv + ".Milliseconds()",
				TextEdits: []analysis.TextEdit{fixes.Replace(e, recv+".Milliseconds()")},
			}}
		}
	case redisops.Seconds:
		if ns != nil && *ns >= int64(time.Second) && *ns%int64(time.Second) == 0 && c.timePkg(e.Pos()) {
			repl := fmt.Sprintf("int64(%s / time.Second)", recv)
			d.SuggestedFixes = []analysis.SuggestedFix{{
				Message:   "Pass " + repl,
				TextEdits: []analysis.TextEdit{fixes.Replace(e, repl)},
			}}
		}
	}
	c.r.Report(d)
}

// timePkg reports whether the name time means package time at pos.
func (c *checker) timePkg(pos token.Pos) bool {
	scope := fixes.ScopeAt(c.pass, c.res.FileIndex(c.pass).At(pos), pos)
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent("time", pos)
	pn, ok := obj.(*types.PkgName)
	return ok && pn.Imported().Path() == "time"
}

// nanosConv matches e = T(x), T an integer type and x a time.Duration that
// certainly is one: a parameter of the enclosing function or a struct
// field of that type (not a constant, and not a local variable, which may
// hold a bare count). The conversion keeps the count of nanoseconds. It
// returns x, or nil.
func (c *checker) nanosConv(e ast.Expr) ast.Expr {
	info := c.pass.TypesInfo
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	tv, ok := info.Types[call.Fun]
	if !ok || !tv.IsType() {
		return nil
	}
	if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return nil
	}
	x := ast.Unparen(call.Args[0])
	if !isDuration(info.TypeOf(x)) || info.Types[x].Value != nil {
		return nil
	}
	if sel, ok := x.(*ast.SelectorExpr); ok {
		if v, ok := info.Uses[sel.Sel].(*types.Var); ok && v.IsField() {
			return x
		}
		return nil
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	// A parameter: declared in the signature scope of a function around
	// the conversion.
	if v.Parent() == nil || v.Pos() >= call.Pos() {
		return nil
	}
	cur, ok := c.res.Inspector.Root().FindByPos(call.Pos(), call.End())
	if !ok {
		return nil
	}
	for fn := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var ft *ast.FuncType
		switch n := fn.Node().(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		}
		if ft.Params != nil && ft.Params.Pos() <= v.Pos() && v.Pos() < ft.Params.End() {
			return x
		}
	}
	return nil
}

// nanosCount reports a time.Duration converted to an integer where the
// command takes seconds or milliseconds: the integer is a count of
// nanoseconds. No fix: dividing by the unit makes a TTL below it 0, which
// deletes the key (EXPIRE) or means no expiry (memcached), so the right
// rounding is the author's choice.
func (c *checker) nanosCount(op *redisops.Op, e, x ast.Expr) {
	fset := c.pass.Fset
	unit, div := "seconds", "time.Second"
	if op.TTLUnit == redisops.Millis {
		unit, div = "milliseconds", "time.Millisecond"
	}
	xt := fixes.Text(fset, x)
	c.r.Report(analysis.Diagnostic{
		Pos: e.Pos(),
		End: e.End(),
		Message: fmt.Sprintf("TTL %s is a count of nanoseconds where %s takes %s (30s becomes 30000000000); divide first: %s / %s (no fix: how to round a TTL below the unit is the author's choice)",
			fixes.Text(fset, e), op.Method, unit, xt, div),
	})
}

// countOf reads e as a count taken from a time.Duration in some unit: the
// Duration's Milliseconds() or Seconds(), or the Duration divided by
// time.Millisecond or time.Second, under any integer conversions. It
// returns the unit (Seconds or Millis), the Duration method or division
// as written, and whether the count is a float (Seconds()); ok is false
// for anything else.
func (c *checker) countOf(e ast.Expr) (unit redisops.Unit, float, ok bool) {
	info := c.pass.TypesInfo
	for {
		call, isCall := ast.Unparen(e).(*ast.CallExpr)
		if !isCall || len(call.Args) != 1 {
			break
		}
		tv, found := info.Types[call.Fun]
		if !found || !tv.IsType() {
			break
		}
		if b, isBasic := tv.Type.Underlying().(*types.Basic); !isBasic || b.Info()&types.IsInteger == 0 {
			break
		}
		e = call.Args[0]
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		sel, isSel := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if !isSel || len(x.Args) != 0 || !isDuration(info.TypeOf(sel.X)) {
			return 0, false, false
		}
		switch sel.Sel.Name {
		case "Milliseconds":
			return redisops.Millis, false, true
		case "Seconds":
			return redisops.Seconds, true, true
		}
	case *ast.BinaryExpr:
		if x.Op != token.QUO || !isDuration(info.TypeOf(x.X)) {
			return 0, false, false
		}
		tv := info.Types[x.Y]
		if tv.Value == nil || tv.Value.Kind() != constant.Int {
			return 0, false, false
		}
		switch v, _ := constant.Int64Val(tv.Value); v {
		case int64(time.Millisecond):
			return redisops.Millis, false, true
		case int64(time.Second):
			return redisops.Seconds, false, true
		}
	}
	return 0, false, false
}

// crossed reports a count taken from a Duration in one unit and given
// where the command takes another (milliseconds to EX, seconds to PX),
// and fractional seconds (Duration.Seconds(), a float64) given where a
// whole number is taken. It reports whether it found one.
func (c *checker) crossed(op *redisops.Op, e ast.Expr) bool {
	unit, float, ok := c.countOf(e)
	if !ok {
		return false
	}
	text := fixes.Text(c.pass.Fset, e)
	name := map[redisops.Unit]string{redisops.Seconds: "seconds", redisops.Millis: "milliseconds"}
	d := analysis.Diagnostic{Pos: e.Pos(), End: e.End()}
	switch {
	case unit != op.TTLUnit && op.TTLUnit == redisops.Seconds:
		d.Message = fmt.Sprintf("TTL %s is a count of milliseconds where %s takes seconds: the key lives 1000 times longer; pass int64(ttl / time.Second)", text, op.Method)
	case unit != op.TTLUnit:
		d.Message = fmt.Sprintf("TTL %s is a count of seconds where %s takes milliseconds: the key lives a thousandth as long; pass ttl.Milliseconds()", text, op.Method)
	case float && !isInteger(c.pass.TypesInfo.TypeOf(e)):
		d.Message = fmt.Sprintf("TTL %s is a float64 of seconds where %s takes whole %s, and Redis rejects a fraction; pass int64(ttl / time.Second) (no fix: how to round a fraction of a second is the author's choice)", text, op.Method, name[op.TTLUnit])
		c.r.Report(d)
		return true
	default:
		return false
	}
	// The count is right for the other option word: name that one (EX
	// for seconds, PX for milliseconds) and keep the count as written.
	if edit, word, ok := op.RespellTTL(unit); ok && isInteger(c.pass.TypesInfo.TypeOf(e)) {
		d.Message += ", or use " + word
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Use %s, which takes %s", word, name[unit]),
			TextEdits: []analysis.TextEdit{edit},
		}}
	} else {
		d.Message += " (no fix: no EX or PX option word to change here)"
	}
	c.r.Report(d)
	return true
}

// isInteger reports whether t is an integer type.
func isInteger(t types.Type) bool {
	b, ok := t.(*types.Basic)
	if !ok {
		if t == nil {
			return false
		}
		b, ok = t.Underlying().(*types.Basic)
	}
	return ok && b.Info()&types.IsInteger != 0
}
