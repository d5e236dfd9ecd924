package redisops

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// INCR as a lock on redigo (incr.go has the rules): Do("INCR", key) read
// by redis.Int, Int64 or Uint64 into a variable, the release a DEL or
// UNLINK sent by Do or Send.

// incr builds the op for Do("INCR", key): an acquire with no TTL when the
// call takes a lock, nil otherwise; verdict is set when the reply answers
// for a lock (incrVerdict).
func (redigo) incr(pass *analysis.Pass, op *Op, call *ast.CallExpr, rc *redigoCall) (lk *Op, verdict bool) {
	if rc.send || rc.spread || len(rc.args) != 1 {
		return nil, false
	}
	cur, ok := cursorAt(pass, call)
	if !ok {
		return nil, false
	}
	if use := incrOf(pass.TypesInfo, cur, rc.args[0], redigoIncr); use != incrLocked {
		return nil, use == incrVerdict
	}
	op.Kind = Acquire
	op.Keys = []ast.Expr{rc.args[0]}
	op.NoTTL = true
	op.Scope = connScope(pass, call, rc)
	return op, false
}

// redigoIncrReads are the reply helpers that turn INCR's reply into an
// integer and an error.
var redigoIncrReads = map[string]bool{"Int": true, "Int64": true, "Uint64": true}

// redigoIncr reads redigo's INCR reply: the Do call as the only argument
// of redis.Int, Int64 or Uint64 (a pair); DEL and UNLINK are its deletes.
var redigoIncr = incrReader{
	reply: func(info *types.Info, cur inspector.Cursor) (inspector.Cursor, bool, bool) {
		p, ok := cur.Parent().Node().(*ast.CallExpr)
		if !ok || len(p.Args) != 1 || p.Args[0] != cur.Node() {
			return inspector.Cursor{}, false, false
		}
		fn, ok := typeutil.Callee(info, p).(*types.Func)
		if !ok || fn.Pkg() == nil || redigoPaths[fn.Pkg().Path()] == "" || fn.Signature().Recv() != nil || !redigoIncrReads[fn.Name()] {
			return inspector.Cursor{}, false, false
		}
		return cur.Parent(), true, true
	},
	deletes: func(info *types.Info, _ *ast.BlockStmt, call *ast.CallExpr) []ast.Expr {
		rc, ok := parseRedigo(info, call)
		if !ok || !rc.named || rc.spread || rc.script != nil || rc.name != "DEL" && rc.name != "UNLINK" {
			return nil
		}
		return rc.args
	},
}
