package redisops

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// go-redis: running one of lockvet's scripts in place of a command, for
// the owner-checked release (goredis_release.go) and renewal
// (goredis_renew.go).

// goRedisScriptMethod finds the constructor NewScript of the client package
// pkg and the method name (Run, Eval) of the script type it makes, when
// that method can stand in for the command fn sent on a receiver of type
// recvT: it takes a context exactly when fn does, then a scripter recvT
// satisfies, the keys and the variadic arguments, and returns one result.
func goRedisScriptMethod(pkg *types.Package, name string, fn *types.Func, recvT types.Type) (ctor, run *types.Func, ok bool) {
	ctor, ok = pkg.Scope().Lookup("NewScript").(*types.Func)
	if !ok || ctor.Signature().Results().Len() != 1 {
		return nil, nil, false
	}
	run = methodOf(ctor.Signature().Results().At(0).Type(), pkg, name)
	if run == nil || takesContext(run) != takesContext(fn) {
		return nil, nil, false
	}
	sig := run.Signature()
	i := 0
	if takesContext(run) {
		i = 1
	}
	if sig.Params().Len() != i+3 || !sig.Variadic() || sig.Results().Len() != 1 ||
		!types.AssignableTo(recvT, sig.Params().At(i).Type()) {
		return nil, nil, false
	}
	return ctor, run, true
}

// keepReply returns the edits that keep the code around the command o
// compiling, and meaning the same, when its result (type from) becomes a
// script run's (type to): a result discarded (a statement, or assigned to
// blanks) or read with Err() stays; Result() becomes the first accessor
// of pairs that the script's result has with Result's results (Int64 for
// an *IntCmd, Bool for a *BoolCmd), or stays when only its error is kept
// (_, err := …Result()); Val() stays in a statement of its
// own. A command value kept in a new variable (ret := rdb.Del(ctx, k))
// stays when every use of the variable is one of these reads. Any other
// use: false.
func keepReply(o *Op, from, to types.Type, pairs ...string) ([]analysis.TextEdit, bool) {
	same := func(a, b string) bool {
		ma, mb := methodOf(from, nil, a), methodOf(to, nil, b)
		return ma != nil && mb != nil && mb.Signature().Params().Len() == 0 && sameResults(ma.Signature(), mb.Signature())
	}
	switch p := o.Cursor.Parent().Node().(type) {
	case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
		return nil, true
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 {
			return nil, false
		}
		blank := true
		for _, l := range p.Lhs {
			if !isBlank(l) {
				blank = false
			}
		}
		if blank {
			return nil, true
		}
		if len(p.Lhs) == 1 && p.Tok == token.DEFINE {
			return keepVar(o, p.Lhs[0], to, same, pairs)
		}
		return nil, false
	}
	sel, acc, ok := accessor(o.Cursor)
	if !ok {
		return nil, false
	}
	return keepRead(sel, acc, to, same, pairs)
}

// keepRead is keepReply for one read of the command value by the accessor
// sel, called at acc.
func keepRead(sel *ast.SelectorExpr, acc inspector.Cursor, to types.Type, same func(a, b string) bool, pairs []string) ([]analysis.TextEdit, bool) {
	switch sel.Sel.Name {
	case "Err":
		return nil, same("Err", "Err")
	case "Result":
		for _, r := range pairs {
			if same("Result", r) {
				return []analysis.TextEdit{fixes.Replace(sel.Sel, r)}, true
			}
		}
		// _, err := cmd.Result(): only the error is read.
		if as, ok := acc.Parent().Node().(*ast.AssignStmt); ok && len(as.Lhs) == 2 && len(as.Rhs) == 1 && isBlank(as.Lhs[0]) {
			if m := methodOf(to, nil, "Result"); m != nil {
				r := m.Signature().Results()
				return nil, m.Signature().Params().Len() == 0 && r.Len() == 2 && isError(r.At(1).Type())
			}
		}
	case "Val":
		switch acc.Parent().Node().(type) {
		case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
			return nil, methodOf(to, nil, "Val") != nil
		}
	}
	return nil, false
}

// keepVar is keepReply for a command value kept in a new variable
// (ret := rdb.Del(ctx, k)): every use of the variable must be a read that
// keepRead keeps (ret.Err(), n, err := ret.Result()), since the variable
// takes the script's type.
func keepVar(o *Op, lhs ast.Expr, to types.Type, same func(a, b string) bool, pairs []string) ([]analysis.TextEdit, bool) {
	id, ok := lhs.(*ast.Ident)
	if !ok || o.Func == nil || o.Func.info == nil {
		return nil, false
	}
	info := o.Func.info
	v, ok := info.Defs[id].(*types.Var)
	if !ok {
		return nil, false
	}
	var edits []analysis.TextEdit
	for fc := range o.Cursor.Enclosing() {
		if fc.Node() != o.Func.Node {
			continue
		}
		for u := range fc.Preorder((*ast.Ident)(nil)) {
			if info.Uses[u.Node().(*ast.Ident)] != v {
				continue
			}
			sel, acc, ok := accessor(u)
			if !ok {
				return nil, false
			}
			e, ok := keepRead(sel, acc, to, same, pairs)
			if !ok {
				return nil, false
			}
			edits = append(edits, e...)
		}
		return edits, true
	}
	return nil, false
}
