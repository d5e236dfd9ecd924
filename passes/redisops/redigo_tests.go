package redisops

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// replyTests rewrites the uses of v, a variable that holds a SETNX reply
// read as 1 or 0 (redis.Int, Int64, Uint64) or as true or false
// (redis.Bool), into tests of the reply that replaces it: is(true) is the
// source of the test that holds when the lock was acquired, is(false) of
// the one that holds when it was busy. Every use must be a test that
// takes one side for the acquired value (1, true) and the other for the
// busy one (0, false):
//
//	v == 1, v != 0, v > 0, v >= 1, 1 == v, …  →  is(true)
//	v == 0, v != 1, v < 1, …                   →  is(false)
//	v (a bool condition), v == true            →  is(true)
//	!v, v == false                             →  is(false)
//
// Any other use (v printed, passed on, assigned, compared with a
// variable) leaves the value needed as it was: ok is false.
func replyTests(pass *analysis.Pass, body ast.Node, v *types.Var, isBool bool, is func(acquired bool) string) ([]analysis.TextEdit, bool) {
	info := pass.TypesInfo
	var edits []analysis.TextEdit
	ok, uses := true, 0
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		if !ok {
			return false
		}
		id, isID := n.(*ast.Ident)
		if !isID || info.Uses[id] != v {
			return true
		}
		uses++
		// The expression the use stands in, out of its parentheses.
		var e ast.Expr = id
		i := len(stack) - 1
		for ; i >= 0; i-- {
			p, isParen := stack[i].(*ast.ParenExpr)
			if !isParen {
				break
			}
			e = p
		}
		var parent ast.Node
		if i >= 0 {
			parent = stack[i]
		}
		switch p := parent.(type) {
		case *ast.BinaryExpr:
			if p.Op == token.LAND || p.Op == token.LOR {
				if !isBool {
					ok = false
					return false
				}
				edits = append(edits, fixes.Replace(e, is(true)))
				return false
			}
			other, left := p.Y, true
			if p.Y == e {
				other, left = p.X, false
			}
			c := info.Types[other].Value
			if c == nil {
				ok = false
				return false
			}
			busy, acq := constant.MakeInt64(0), constant.MakeInt64(1)
			if isBool {
				busy, acq = constant.MakeBool(false), constant.MakeBool(true)
			}
			if busy.Kind() != c.Kind() && !(busy.Kind() == constant.Int && c.Kind() == constant.Float) {
				ok = false
				return false
			}
			holds := func(x constant.Value) bool {
				if left {
					return constant.Compare(x, p.Op, c)
				}
				return constant.Compare(c, p.Op, x)
			}
			switch hb, ha := holds(busy), holds(acq); {
			case ha && !hb:
				edits = append(edits, fixes.Replace(p, is(true)))
			case hb && !ha:
				edits = append(edits, fixes.Replace(p, is(false)))
			default:
				ok = false
			}
		case *ast.UnaryExpr:
			if !isBool || p.Op != token.NOT {
				ok = false
				return false
			}
			edits = append(edits, fixes.Replace(p, is(false)))
		case *ast.IfStmt:
			if !isBool || p.Cond != e {
				ok = false
				return false
			}
			edits = append(edits, fixes.Replace(e, is(true)))
		case *ast.ForStmt:
			if !isBool || p.Cond != e {
				ok = false
				return false
			}
			edits = append(edits, fixes.Replace(e, is(true)))
		default:
			ok = false
		}
		return false
	})
	return edits, ok && uses > 0
}

// setnxReadAsString keeps the read of a SETNX reply exact once the
// command is SET NX, whose reply is "OK" or nil: a read that keeps the
// value alone,
//
//	v, _ := redis.Int(c.Do("SETNX", k, val))   (Int64, Uint64, Bool)
//
// becomes a redis.String read, "OK" when the key was set and "" when it
// was held or the command failed (as 0 or false were before), and each
// use of v a test of v == "OK" (replyTests).
func setnxReadAsString(pass *analysis.Pass, o *Op, out Outcome) ([]analysis.TextEdit, bool) {
	info := pass.TypesInfo
	as, ok := out.Stmt.(*ast.AssignStmt)
	if !ok || out.Accessor == nil || as.Tok != token.DEFINE || len(as.Lhs) != 2 || !isBlank(as.Lhs[1]) || o.Func == nil {
		return nil, false
	}
	sel, ok := ast.Unparen(out.Accessor.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	isBool := false
	switch sel.Sel.Name {
	case "Int", "Int64", "Uint64":
	case "Bool":
		isBool = true
	default:
		return nil, false
	}
	id, ok := as.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := info.Defs[id].(*types.Var)
	if !ok || v == nil {
		return nil, false
	}
	name := id.Name
	tests, ok := replyTests(pass, o.Func.Body, v, isBool, func(acquired bool) string {
		if acquired {
			return name + ` == "OK"`
		}
		return name + ` != "OK"`
	})
	if !ok {
		return nil, false
	}
	return append([]analysis.TextEdit{fixes.Replace(sel.Sel, "String")}, tests...), true
}
