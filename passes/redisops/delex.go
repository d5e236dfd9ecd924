package redisops

import (
	"go/ast"
	"go/types"
	"strings"
)

// delEx handles DelExArgs(ctx, key, redis.DelExArgs{Mode: …, …}) (go-redis
// v9, Redis ≥ 8.4). With a constant IFEQ or IFDEQ mode it deletes the key
// only while it holds the given value or digest: a CompareDelete. Other
// modes (IFNE, IFDNE, none, or not a constant) are not recognized.
func (goRedis) delEx(info *types.Info, op *Op, args []ast.Expr) *Op {
	if len(args) != 2 {
		return nil
	}
	lit, ok := ast.Unparen(args[1]).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var mode, value ast.Expr
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			return nil
		}
		switch id.Name {
		case "Mode":
			mode = kv.Value
		case "MatchValue", "MatchDigest":
			value = kv.Value
		}
	}
	m := constString(info, mode)
	if m == nil || value == nil {
		return nil
	}
	switch strings.ToUpper(*m) {
	case "IFEQ", "IFDEQ":
	default:
		return nil
	}
	op.Kind = CompareDelete
	op.Keys = []ast.Expr{args[0]}
	op.Value = value
	return op
}
