package redisops

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// go-redis: the owner-checked renewal that replaces Expire(ctx, key, ttl):
// the compare-and-pexpire script, run with the client's Script type.

// renewable: EXPIRE and PEXPIRE, and EXPIRE XX (a held lock has a TTL).
// NX, GT and LT make the expire conditional on the current TTL, which the
// script does not reproduce.
func (goRedis) renewable(o *Op) bool {
	switch o.Method {
	case "Expire", "PExpire", "ExpireXX":
		return true
	}
	return false
}

// scriptCtorFor: script objects come from NewScript in the package that
// declares o's method (rueidiscompat and valkeycompat included).
func (goRedis) scriptCtorFor(pass *analysis.Pass, o *Op) (*types.Package, string, bool) {
	return ctorIn(pass, o, "NewScript", anyPath)
}

func (g goRedis) runScript(pass *analysis.Pass, o *Op, v string, keys, args []string) ([]analysis.TextEdit, bool) {
	info := pass.TypesInfo
	fn, ok := typeutil.Callee(info, o.Call).(*types.Func)
	if !ok || o.Recv == nil {
		return nil, false
	}
	pkg, _, ok := g.scriptCtorFor(pass, o)
	if !ok {
		return nil, false
	}
	_, run, ok := goRedisScriptMethod(pkg, "Run", fn, info.TypeOf(o.Recv))
	if !ok {
		return nil, false
	}
	edits, ok := keepReply(o, info.TypeOf(o.Call), run.Signature().Results().At(0).Type(), "Bool", "Int64", "Text", "String")
	if !ok {
		return nil, false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s.Run(", v)
	if takesContext(run) {
		b.WriteString(fixes.Text(pass.Fset, o.Call.Args[0]) + ", ")
	}
	fmt.Fprintf(&b, "%s, []string{%s}", fixes.Text(pass.Fset, o.Recv), strings.Join(keys, ", "))
	for _, a := range args {
		b.WriteString(", " + a)
	}
	b.WriteString(")")
	return append([]analysis.TextEdit{fixes.Replace(o.Call, b.String())}, edits...), true
}
