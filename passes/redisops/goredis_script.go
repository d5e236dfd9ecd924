package redisops

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

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
// an *IntCmd, Bool for a *BoolCmd); Val() stays in a statement of its
// own. Any other use: false.
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
		for _, l := range p.Lhs {
			if !isBlank(l) {
				return nil, false
			}
		}
		return nil, true
	}
	sel, acc, ok := accessor(o.Cursor)
	if !ok {
		return nil, false
	}
	switch sel.Sel.Name {
	case "Err":
		return nil, same("Err", "Err")
	case "Result":
		for _, r := range pairs {
			if same("Result", r) {
				return []analysis.TextEdit{fixes.Replace(sel.Sel, r)}, true
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
