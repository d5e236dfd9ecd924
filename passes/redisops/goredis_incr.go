package redisops

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// INCR as a lock on go-redis (incr.go has the rules): the reply read by
// .Val() or .Result() of the Incr call, the release a DEL or UNLINK.

// incr builds the op for Incr(ctx, key): an acquire with no TTL when the
// call takes a lock, a Counter otherwise.
func (goRedis) incr(pass *analysis.Pass, op *Op, call *ast.CallExpr, args []ast.Expr) *Op {
	if len(args) != 1 {
		return nil
	}
	in, ok := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	if !ok {
		return nil
	}
	cur, ok := in.Root().FindByPos(call.Pos(), call.End())
	if !ok || cur.Node() != call {
		if cur, ok = in.Root().FindNode(call); !ok {
			return nil
		}
	}
	op.Keys = []ast.Expr{args[0]}
	if use := incrOf(pass.TypesInfo, cur, args[0], goRedisIncr); use != incrLocked {
		op.Kind, op.incrVerdict = Counter, use == incrVerdict
		return op
	}
	op.Kind = Acquire
	op.NoTTL = true
	return op
}

// goRedisIncr reads go-redis' INCR reply: .Val() (one value) or .Result()
// (a pair) called on the Incr call; DEL and UNLINK are its deletes.
var goRedisIncr = incrReader{
	reply: func(info *types.Info, cur inspector.Cursor) (inspector.Cursor, bool, bool) {
		acc, pair, ok := valOrResult(cur)
		if !ok {
			return inspector.Cursor{}, false, false
		}
		if fn, ok := typeutil.Callee(info, acc.Node().(*ast.CallExpr)).(*types.Func); !ok || fn.Pkg() == nil || !isGoRedis(fn.Pkg().Path()) {
			return inspector.Cursor{}, false, false
		}
		return acc, pair, true
	},
	deletes: func(info *types.Info, _ *ast.BlockStmt, call *ast.CallExpr) []ast.Expr {
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok || fn.Pkg() == nil || !isGoRedis(fn.Pkg().Path()) || call.Ellipsis.IsValid() {
			return nil
		}
		if c, ok := goRedisCmds[fn.Name()]; !ok || c.kind != Delete {
			return nil
		}
		args := call.Args
		if takesContext(fn) && len(args) > 0 {
			args = args[1:]
		}
		return args
	},
}

// valOrResult finds .Val() (one value) or .Result() (a pair) called on
// the command value the call at cur returns: the accessor's call.
func valOrResult(cur inspector.Cursor) (acc inspector.Cursor, pair, ok bool) {
	sel, acc, ok := accessor(cur)
	if !ok {
		return inspector.Cursor{}, false, false
	}
	switch sel.Sel.Name {
	case "Val":
		return acc, false, true
	case "Result":
		return acc, true, true
	}
	return inspector.Cursor{}, false, false
}
