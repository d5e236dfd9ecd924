package redisops

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// INCR as a lock on rueidis and the clients with its API (incr.go has the
// rules): Do(ctx, B().Incr().Key(key).Build()) read by .AsInt64() or
// .ToInt64() into a variable, the release a DEL or UNLINK sent by Do.

// incr builds the op for the Do call of an INCR chain c: an acquire with
// no TTL when the call takes a lock, nil otherwise; verdict is set when
// the reply answers for a lock (incrVerdict).
func (r rueidisClient) incr(pass *analysis.Pass, call *ast.CallExpr, c *rcmd) (op *Op, verdict bool) {
	key := c.arg("Key")
	if key == nil {
		return nil, false
	}
	cur, ok := cursorAt(pass, call)
	if !ok {
		return nil, false
	}
	if use := incrOf(pass.TypesInfo, cur, key, r.incrReader()); use != incrLocked {
		return nil, use == incrVerdict
	}
	return &Op{Kind: Acquire, Call: call, Client: r.name, Method: "INCR", Keys: []ast.Expr{key}, NoTTL: true}, false
}

// incrReader reads the client's INCR reply: .AsInt64() or .ToInt64() of
// the Do call (a pair); DEL and UNLINK sent by Do are its deletes.
func (r rueidisClient) incrReader() incrReader {
	return incrReader{
		reply: func(info *types.Info, cur inspector.Cursor) (inspector.Cursor, bool, bool) {
			sel, acc, ok := accessor(cur)
			if !ok {
				return inspector.Cursor{}, false, false
			}
			fn, ok := typeutil.Callee(info, acc.Node().(*ast.CallExpr)).(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != r.path || sel.Sel.Name != "AsInt64" && sel.Sel.Name != "ToInt64" {
				return inspector.Cursor{}, false, false
			}
			return acc, true, true
		},
		deletes: func(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr) []ast.Expr {
			fn, ok := typeutil.Callee(info, call).(*types.Func)
			if !ok || !r.sends(fn, "Do") || len(call.Args) < 2 {
				return nil
			}
			c, _ := r.chainAt(info, body, call.Args[1])
			if c == nil || c.name != "DEL" && c.name != "UNLINK" {
				return nil
			}
			var keys []ast.Expr
			for _, s := range c.steps {
				if s.name == "Key" {
					if s.call.Ellipsis.IsValid() {
						return nil
					}
					keys = append(keys, s.call.Args...)
				}
			}
			return keys
		},
	}
}
