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
	unit, advice := "seconds", fmt.Sprintf("pass int64(%s / time.Second), or %s.Milliseconds() to the command's millisecond form (PX, PEXPIRE, PSETEX)", recv, recv)
	if op.TTLUnit == redisops.Millis {
		unit, advice = "milliseconds", fmt.Sprintf("pass %s.Milliseconds()", recv)
	}
	what := "the write fails"
	switch op.Kind {
	case redisops.Acquire:
		what = "the lock is never acquired"
	case redisops.Expire:
		what = "the key gets no TTL"
	}
	d := analysis.Diagnostic{
		Pos: e.Pos(),
		End: e.End(),
		Message: fmt.Sprintf("TTL %s is a time.Duration where %s takes a whole number of %s: it is not converted, so it goes out as the client formats it (text such as \"30s\", which Redis rejects, so %s; or a count of nanoseconds); %s",
			text, op.Method, unit, what, advice),
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
		Message: fmt.Sprintf("TTL %s converts the time.Duration %s to an integer, a count of nanoseconds, where %s takes a whole number of %s: a 30s TTL goes out as 30000000000 %s (or wraps around in a 32-bit field); divide by the unit first (%s / %s), and keep a TTL below one %s from becoming 0",
			fixes.Text(fset, e), xt, op.Method, unit, unit, xt, div, strings.TrimSuffix(unit, "s")),
	})
}
