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
	scope := c.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent("time", pos)
	pn, ok := obj.(*types.PkgName)
	return ok && pn.Imported().Path() == "time"
}
