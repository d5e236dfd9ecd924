package redisops

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// go-redis: how an acquire reports acquired, busy and failed (SetNX's
// bool, SetArgs' status and redis.Nil) and how the code reads it.

// goRedisBase maps a go-redis-shaped family to the package of the native
// client it wraps, whose nil-reply error and predicate users may test
// instead of the adapter's.
var goRedisBase = map[string]string{
	"rueidiscompat": "github.com/redis/rueidis",
	"valkeycompat":  "github.com/valkey-io/valkey-go",
}

// goRedisReads are the accessors on a go-redis command value and what
// they yield.
var goRedisReads = map[string]readShape{"Err": readErrOnly, "Val": readValueOnly, "Result": readPair}

// outcome: SetNX reports busy as false with a nil error (BusyFalse);
// SetArgs with Mode NX sends SET NX, whose nil reply is redis.Nil
// (BusyErr).
func (goRedis) outcome(info *types.Info, o *Op) (Outcome, bool) {
	out := Outcome{Busy: BusyFalse}
	switch {
	case o.Method == "SetArgs" && getFlag(o):
		return Outcome{}, false // SET NX GET: the reply is the old value, not a status
	case o.Method == "SetArgs":
		out.Busy = BusyErr
	case o.Method == "Incr":
		out.Busy = BusyCount
	case o.Method != "SetNX":
		return Outcome{}, false
	}
	return readReply(info, out, o, goRedisReads, isGoRedis), true
}

// isGoRedis reports whether path is a go-redis-shaped client package.
func isGoRedis(path string) bool { return goRedisPaths[path] != "" }

// getFlag reports whether a SetArgs literal may set Get.
func getFlag(o *Op) bool {
	if len(o.Call.Args) == 0 {
		return false
	}
	lit, ok := ast.Unparen(o.Call.Args[len(o.Call.Args)-1]).(*ast.CompositeLit)
	if !ok {
		return true
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Get" {
			if v, ok := ast.Unparen(kv.Value).(*ast.Ident); !ok || v.Name != "false" {
				return true
			}
		}
	}
	return false
}

func (goRedis) busyErr(info *types.Info, o *Op, e ast.Expr) bool {
	obj := pkgLevel(info, e)
	if obj == nil || obj.Name() != "Nil" {
		return false
	}
	switch obj.(type) {
	case *types.Const, *types.Var:
	default:
		return false
	}
	path := obj.Pkg().Path()
	return goRedisPaths[path] == o.Client || goRedisBase[o.Client] == path
}

func (goRedis) busyTest(info *types.Info, o *Op, call *ast.CallExpr) (ast.Expr, bool) {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || len(call.Args) != 1 || goRedisBase[o.Client] != fn.Pkg().Path() {
		return nil, false
	}
	switch fn.Name() {
	case "IsRedisNil", "IsValkeyNil":
		return call.Args[0], true
	}
	return nil, false
}

// readBoth: `err := cmd.Err()` becomes `name, err := cmd.Result()`, and
// `_, err := cmd.Result()` names the value.
func (goRedis) readBoth(out Outcome, name string) ([]analysis.TextEdit, bool) {
	return readBothVia(out, name, "Err", "Result")
}
