package redisops

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/keyid"
)

// INCR as a lock: some code takes a lock with INCR key and enters when the
// reply is 1, the first INCR of an absent key. INCR sets no TTL, so such a
// lock is an acquire with no TTL (NoTTL), and an EXPIRE after it is the
// two-step acquire LV101 is about.
//
// Most INCRs are counters, and a rate limiter also compares its counter
// with 1 (to give a new window its TTL: if n == 1 { EXPIRE }). An INCR is
// taken for a lock only when all of these hold, so that counters stay
// silent:
//
//   - its reply is read at the call, by .Val() (in place or into a
//     variable) or .Result() into a variable, and every use of the reply
//     is the whole condition of an if statement comparing it with 1: a
//     counter compared with a limit, returned or passed on is not a lock;
//   - one such if enters a critical section: `== 1` runs its body, and
//     `!= 1` leaves (its body ends in return, break, continue, goto or a
//     call that does not return, and it has no else) before the rest of
//     the block;
//   - that critical section deletes the key (DEL or UNLINK of the same key,
//     deferred or not): the lock is released. An INCR guard that only its
//     TTL ever clears is not recognized.

// incr builds the op for Incr(ctx, key): an acquire with no TTL when the
// call takes a lock, nil otherwise.
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
	if !incrLock(pass.TypesInfo, cur, args[0]) {
		return nil
	}
	op.Kind = Acquire
	op.Keys = []ast.Expr{args[0]}
	op.NoTTL = true
	return op
}

// incrGuard is an if statement that compares an INCR's reply with 1.
type incrGuard struct {
	cur inspector.Cursor // at the *ast.IfStmt
	eq  bool             // == 1 (else != 1)
}

// incrLock reports whether the INCR at cur, of key, takes a lock.
func incrLock(info *types.Info, cur inspector.Cursor, key ast.Expr) bool {
	sel, acc, ok := accessor(cur)
	if !ok {
		return false
	}
	if fn, ok := typeutil.Callee(info, acc.Node().(*ast.CallExpr)).(*types.Func); !ok || fn.Pkg() == nil || !isGoRedis(fn.Pkg().Path()) {
		return false
	}
	var fcur inspector.Cursor
	var body *ast.BlockStmt
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch n := c.Node().(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		}
		fcur = c
		break
	}
	if body == nil {
		return false
	}

	var guards []incrGuard
	switch sel.Sel.Name {
	case "Val":
		if obj := assignedTo(info, acc); obj != nil {
			if guards, ok = replyGuards(info, fcur, obj); !ok {
				return false
			}
			break
		}
		g, ok := guardOf(info, acc)
		if !ok {
			return false
		}
		guards = []incrGuard{g}
	case "Result":
		first := pairFirst(info, acc.Parent().Node())
		if first == nil {
			return false
		}
		if guards, ok = replyGuards(info, fcur, first); !ok {
			return false
		}
	default:
		return false
	}

	for _, g := range guards {
		for _, n := range criticalSection(info, g) {
			if deletesKey(info, body, n, key) {
				return true
			}
		}
	}
	return false
}

// replyGuards returns the ifs that compare the reply variable obj with 1,
// or false when obj has any other use in the function at fcur.
func replyGuards(info *types.Info, fcur inspector.Cursor, obj types.Object) ([]incrGuard, bool) {
	if obj == nil {
		return nil, false
	}
	var guards []incrGuard
	for c := range fcur.Preorder((*ast.Ident)(nil)) {
		if info.Uses[c.Node().(*ast.Ident)] != obj {
			continue
		}
		g, ok := guardOf(info, c)
		if !ok {
			return nil, false
		}
		guards = append(guards, g)
	}
	return guards, len(guards) > 0
}

// guardOf reports whether the reply at c is an operand of `== 1` or
// `!= 1` that is the whole condition of an if statement.
func guardOf(info *types.Info, c inspector.Cursor) (incrGuard, bool) {
	e := c.Node().(ast.Expr)
	p := c.Parent()
	for {
		if _, ok := p.Node().(*ast.ParenExpr); !ok {
			break
		}
		e, p = p.Node().(ast.Expr), p.Parent()
	}
	b, ok := p.Node().(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return incrGuard{}, false
	}
	other := b.Y
	if b.Y == e {
		other = b.X
	}
	if tv, ok := info.Types[other]; !ok || tv.Value == nil || tv.Value.Kind() != constant.Int || constant.Compare(tv.Value, token.NEQ, constant.MakeInt64(1)) {
		return incrGuard{}, false
	}
	q := p.Parent()
	cond := ast.Expr(b)
	for {
		if _, ok := q.Node().(*ast.ParenExpr); !ok {
			break
		}
		cond, q = q.Node().(ast.Expr), q.Parent()
	}
	ifs, ok := q.Node().(*ast.IfStmt)
	if !ok || ifs.Cond != cond {
		return incrGuard{}, false
	}
	return incrGuard{cur: q, eq: b.Op == token.EQL}, true
}

// criticalSection returns the statements a guard lets only the holder
// run: the body of `if r == 1`, or what follows `if r != 1 { …; return }`
// in its block.
func criticalSection(info *types.Info, g incrGuard) []ast.Node {
	ifs := g.cur.Node().(*ast.IfStmt)
	if g.eq {
		return []ast.Node{ifs.Body}
	}
	if ifs.Else != nil || len(ifs.Body.List) == 0 || !leaves(info, ifs.Body.List[len(ifs.Body.List)-1]) {
		return nil
	}
	var list []ast.Stmt
	switch p := g.cur.Parent().Node().(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	for i, s := range list {
		if s == ifs {
			var out []ast.Node
			for _, rest := range list[i+1:] {
				out = append(out, rest)
			}
			return out
		}
	}
	return nil
}

// leaves reports whether s ends the block: a return, a branch, or a call
// that does not return.
func leaves(info *types.Info, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		return ok && !mayReturn(info, call)
	}
	return false
}

// deletesKey reports whether n holds a go-redis DEL or UNLINK of key.
func deletesKey(info *types.Info, body ast.Node, n ast.Node, key ast.Expr) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok || fn.Pkg() == nil || !isGoRedis(fn.Pkg().Path()) || call.Ellipsis.IsValid() {
			return true
		}
		if c, ok := goRedisCmds[fn.Name()]; !ok || c.kind != Delete {
			return true
		}
		args := call.Args
		if takesContext(fn) && len(args) > 0 {
			args = args[1:]
		}
		for _, a := range args {
			if keyid.Same(info, body, key, a) {
				found = true
			}
		}
		return !found
	})
	return found
}
