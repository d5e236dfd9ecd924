package redisops

import (
	"go/ast"
	"go/token"
	"go/types"
	"time"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"golang.org/x/tools/go/analysis"
)

// lockLibs knows the acquire calls of Redis lock libraries: redsync's
// Mutex.Lock, LockContext, TryLock and TryLockContext, bsm/redislock's
// Obtain (the Client method and the package function), and rueidislock's
// Locker.WithContext and TryWithContext. The libraries are correct inside
// and their internals are never looked at; what can go wrong is the
// caller's: each acquire returns an error that is nil exactly when the
// lock was taken (ErrOnly), and code that drops it runs its critical
// section without the lock.
//
// The ops are acquires with an outcome and nothing else: redsync's and
// rueidislock's calls name no Redis key (the mutex or the locker holds the
// key, and rueidislock derives several from the name), so no key-based
// check sees them; redislock's Obtain has its key and TTL, so a bare DEL
// or EXPIRE of a redislock key elsewhere is checked as usual.
//
// The TTLs the libraries take apart from an acquire call are LockTTL ops
// (a TTL and nothing else): redsync.WithExpiry(d), redislock's
// Lock.Refresh(ctx, d, opt), and the KeyValidity field of a
// rueidislock.LockerOption literal passed to NewLocker (in place, or in a
// local variable used nowhere else). redislock and
// rueidislock send a TTL in whole milliseconds (ttl/time.Millisecond,
// ttl.Milliseconds()); redsync's unit depends on its pool (go-redis rounds
// up to 1 ms, redigo truncates), so its truncation is left unset.
type lockLibs struct{}

func init() {
	register(lockLibs{}, []string{"Lock", "LockContext", "TryLock", "TryLockContext", "Obtain", "WithContext", "TryWithContext",
		"WithExpiry", "Refresh", "NewLocker"})
}

// The capabilities this adapter has (capabilities.go).
var (
	_ adapter      = lockLibs{}
	_ pathFamilier = lockLibs{}
	_ outcomer     = lockLibs{}
)

var lockLibPaths = map[string]string{
	"github.com/go-redsync/redsync/v4":     "redsync/v4",
	"github.com/bsm/redislock":             "redislock",
	"github.com/redis/rueidis/rueidislock": "rueidislock",
}

func (l lockLibs) family(fn *types.Func) string { return l.pathFamily(fn.Pkg().Path()) }

func (lockLibs) pathFamily(path string) string { return lockLibPaths[path] }

func (lockLibs) op(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func) *Op {
	fam := lockLibPaths[fn.Pkg().Path()]
	op := &Op{Kind: Acquire, Call: call, Client: fam, Method: fn.Name()}
	if ttl, trunc, ok := libTTL(pass, fam, call, fn); ok {
		op.Kind, op.TTL, op.TTLUnit, op.TTLTrunc = LockTTL, ttl, Duration, trunc
		return op
	}
	switch fam {
	case "redsync/v4":
		if recvNamed(fn) != "Mutex" {
			return nil
		}
		switch fn.Name() {
		case "Lock", "LockContext", "TryLock", "TryLockContext":
			return op
		}
	case "redislock":
		if fn.Name() != "Obtain" {
			return nil
		}
		// (*Client).Obtain(ctx, key, ttl, opt); Obtain(ctx, client, key, ttl, opt).
		i := 1
		if fn.Signature().Recv() == nil {
			i = 2
		}
		if len(call.Args) < i+2 {
			return nil
		}
		op.Keys = []ast.Expr{call.Args[i]}
		op.TTL, op.TTLUnit, op.TTLTrunc = call.Args[i+1], Duration, time.Millisecond
		return op
	case "rueidislock":
		if recvNamed(fn) != "Locker" {
			return nil
		}
		switch fn.Name() {
		case "WithContext", "TryWithContext":
			return op
		}
	}
	return nil
}

// libTTL matches a call that hands a lock library the TTL of the locks it
// takes or renews, and returns the TTL expression and the unit the library
// truncates it to.
func libTTL(pass *analysis.Pass, fam string, call *ast.CallExpr, fn *types.Func) (ast.Expr, time.Duration, bool) {
	info := pass.TypesInfo
	switch {
	case fam == "redsync/v4" && fn.Name() == "WithExpiry" && fn.Signature().Recv() == nil && len(call.Args) == 1:
		return call.Args[0], 0, true
	case fam == "redislock" && fn.Name() == "Refresh" && recvNamed(fn) == "Lock" && len(call.Args) == 3:
		return call.Args[1], time.Millisecond, true
	case fam == "rueidislock" && fn.Name() == "NewLocker" && fn.Signature().Recv() == nil && len(call.Args) == 1:
		lit := optionLit(pass, call)
		if lit == nil {
			return nil, 0, false
		}
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "KeyValidity" {
				if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() {
					return kv.Value, time.Millisecond, true
				}
			}
		}
	}
	return nil, 0, false
}

// optionLit is the composite literal call's only argument is: written in
// place, or a local variable defined by it and used nowhere else (so no
// field of it is changed after the literal).
func optionLit(pass *analysis.Pass, call *ast.CallExpr) *ast.CompositeLit {
	arg := ast.Unparen(call.Args[0])
	if id, ok := arg.(*ast.Ident); ok {
		v, ok := pass.TypesInfo.Uses[id].(*types.Var)
		if !ok {
			return nil
		}
		cur, ok := cursorAt(pass, call)
		if !ok {
			return nil
		}
		body := funcBody(cur)
		if body == nil {
			return nil
		}
		rhs, uses := astx.SoleDef(pass.TypesInfo, body, v)
		if rhs == nil || uses != 1 {
			return nil
		}
		arg = ast.Unparen(rhs)
	}
	lit, _ := arg.(*ast.CompositeLit)
	return lit
}

// outcome: every acquire of these libraries reports its outcome in its
// last result, an error.
func (lockLibs) outcome(info *types.Info, o *Op) (Outcome, bool) {
	sig, ok := info.TypeOf(o.Call.Fun).(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return Outcome{}, false
	}
	n := sig.Results().Len()
	out := callOutcome(info, o, ErrOnly, -1, n-1, n)
	out.IsLock = true
	return out, true
}

// callOutcome describes how the code reads an acquire whose call returns
// its outcome directly (no command object and accessor): nres results,
// the value (a bool, true when acquired) at valIdx and the error at
// errIdx, -1 for none. For an ErrOnly acquire whose error is dropped while
// another result is kept and compared with nil in the function (a lock
// handle, nil unless acquired), the read is not followed (ReadOther).
func callOutcome(info *types.Info, o *Op, busy Busy, valIdx, errIdx, nres int) Outcome {
	out := Outcome{Busy: busy, Expr: o.Call, ExprCursor: o.Cursor}
	p := o.Cursor.Parent()
	for {
		if _, ok := p.Node().(*ast.ParenExpr); !ok {
			break
		}
		p = p.Parent()
	}
	var lhs []ast.Expr
	switch n := p.Node().(type) {
	case *ast.ExprStmt:
		out.Read, out.Stmt = ReadNone, n
		return out
	case *ast.AssignStmt:
		if len(n.Rhs) != 1 || len(n.Lhs) != nres || n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
			return out
		}
		lhs, out.Stmt = n.Lhs, n
	case *ast.ValueSpec:
		if len(n.Values) != 1 || len(n.Names) != nres {
			return out
		}
		for _, id := range n.Names {
			lhs = append(lhs, id)
		}
		out.Stmt = n
	default:
		// Used in place: a single result is the value or the error.
		switch {
		case nres == 1 && valIdx == 0:
			out.Read, out.Value = ReadValue, o.Call
		case nres == 1 && errIdx == 0:
			out.Read, out.Err = ReadErr, o.Call
		}
		return out
	}
	var kept []*ast.Ident
	for i, l := range lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			out.Stmt = nil // a field or an element: not followed
			return out
		}
		if id.Name == "_" {
			continue
		}
		switch i {
		case valIdx:
			out.Value = id
		case errIdx:
			out.Err = id
		default:
			kept = append(kept, id)
		}
	}
	out.Read = readOf(out.Value, out.Err)
	if out.Read == ReadNone && busy == ErrOnly && nilTested(info, o, kept) {
		out.Read, out.Stmt = ReadOther, nil
	}
	return out
}

// nilTested reports whether one of the variables ids is compared with nil
// in the function that holds o.
func nilTested(info *types.Info, o *Op, ids []*ast.Ident) bool {
	if len(ids) == 0 || o.Func == nil {
		return false
	}
	vars := map[types.Object]bool{}
	for _, id := range ids {
		if obj := info.ObjectOf(id); obj != nil {
			vars[obj] = true
		}
	}
	isNil := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && tv.IsNil()
	}
	isVar := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && vars[info.Uses[id]]
	}
	found := false
	ast.Inspect(o.Func.Body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) &&
			(isVar(b.X) && isNil(b.Y) || isVar(b.Y) && isNil(b.X)) {
			found = true
		}
		return !found
	})
	return found
}
