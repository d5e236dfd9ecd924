package lockid

import (
	"go/ast"
	"go/types"
	"sync"

	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockname"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Counterpart helpers: an acquire helper and a release or renew helper of
// the package are one lock when their names say so (lockname.Counterparts:
// Lock/Unlock, Acquire/Release, Lock/Refresh, …), both are methods of the
// same type or both package-level functions, and each builds its key the
// same way from a parameter (keyid.ParamKey: the same template, and the
// same parameter position or name):
//
//	func Lock(ctx context.Context, key string) (bool, error) { return rdb.SetNX(ctx, key, "1", ttl).Result() }
//	func Unlock(ctx context.Context, key string) error        { return rdb.Del(ctx, key).Err() }
//
// This is the evidence Counterpart; a key taken from a field of the
// receiver (Mutex.Lock/Unlock on m.key) is paired by SameShape already.

// counterparts indexes the package's function declarations that hold
// operations by lock role and counterpart group.
type counterparts struct {
	once     sync.Once
	acquires map[cpGroup][]*types.Func // functions named to acquire
	others   map[cpGroup][]*types.Func // functions named to release or renew
	group    map[*types.Func]cpGroup
}

// cpGroup is the receiver's type (nil for package-level functions) and
// the words of the name besides the lock vocabulary. Names are unique in
// a scope, so a group holds only names that differ in filler words (Lock,
// TryLock, GetLock, …): pairing within a group costs a small constant per
// helper, which keeps the package's work linear (TestManyLockFiles).
type cpGroup struct {
	recv types.Object
	rest string
}

func (l *Locks) counterpartIndex() *counterparts {
	c := &l.cps
	c.once.Do(func() {
		c.acquires, c.others, c.group = map[cpGroup][]*types.Func{}, map[cpGroup][]*types.Func{}, map[*types.Func]cpGroup{}
		for fn := range l.index().opsInDecl {
			role, rest := lockname.Split(fn.Name())
			if role == lockname.NoRole {
				continue
			}
			g := cpGroup{redisops.RecvType(fn), rest}
			c.group[fn] = g
			if role == lockname.Acquires {
				c.acquires[g] = append(c.acquires[g], fn)
			} else {
				c.others[g] = append(c.others[g], fn)
			}
		}
	})
	return c
}

// declFunc is the function declared by f's node, or nil for a literal.
func (l *Locks) declFunc(f *redisops.Func) (*ast.FuncDecl, *types.Func) {
	if f == nil {
		return nil, nil
	}
	decl, ok := f.Node.(*ast.FuncDecl)
	if !ok {
		return nil, nil
	}
	fn, _ := l.pass.TypesInfo.Defs[decl.Name].(*types.Func)
	if fn == nil {
		return nil, nil
	}
	return decl, fn
}

// counterpartOf finds, for key used by op in a release or renew helper,
// an acquire in a counterpart helper that builds its key the same way.
func (l *Locks) counterpartOf(op *redisops.Op, key ast.Expr) *Lock {
	_, fn := l.declFunc(op.Func)
	if fn == nil {
		return nil
	}
	c := l.counterpartIndex()
	g, ok := c.group[fn]
	if !ok || len(c.acquires[g]) == 0 {
		return nil
	}
	// The plainest pair wins (Lock/Unlock before Obtain/Unlock), then the
	// first acquire in source order.
	x := l.index()
	var best *redisops.Op
	bestRank := 0
	for _, afn := range c.acquires[g] {
		rank := lockname.Affinity(afn.Name(), fn.Name())
		if rank == 0 || rank < bestRank {
			continue
		}
		for _, i := range x.opsInDecl[afn] {
			a := x.ops[i]
			if a.Kind != redisops.Acquire || a.Key() == nil || !l.sameParamKey(a, op, key) {
				continue
			}
			if best == nil || rank > bestRank || a.Call.Pos() < best.Call.Pos() {
				best, bestRank = a, rank
			}
			break
		}
	}
	if best == nil {
		return nil
	}
	return &Lock{Acquire: best, Evidence: Counterpart}
}

// isCounterpart reports whether op, using key, is in a release or renew
// counterpart of a's function, building key the same way a does.
func (l *Locks) isCounterpart(a, op *redisops.Op, key ast.Expr) bool {
	return l.namedPair(a, op) && l.sameParamKey(a, op, key)
}

// counterpartOps lists the indices (into res.Ops) of the operations in the
// release and renew counterparts of a's function.
func (l *Locks) counterpartOps(a *redisops.Op) []int {
	_, afn := l.declFunc(a.Func)
	if afn == nil {
		return nil
	}
	c := l.counterpartIndex()
	g, ok := c.group[afn]
	if !ok {
		return nil
	}
	var out []int
	for _, fn := range c.others[g] {
		if lockname.Counterparts(afn.Name(), fn.Name()) {
			out = append(out, l.index().opsInDecl[fn]...)
		}
	}
	return out
}

// sameParamKey reports whether a's key and key (used by op) are built
// from a parameter of their functions in the same way: the same
// template (keyid.Template), and the same parameter position or name.
func (l *Locks) sameParamKey(a, op *redisops.Op, key ast.Expr) bool {
	adecl, _ := l.declFunc(a.Func)
	decl, _ := l.declFunc(op.Func)
	if adecl == nil || decl == nil {
		return false
	}
	pa, ok1 := a.Func.Scope().Template(a.KeyForm())
	pb, ok2 := op.Func.Scope().Template(op.FormOf(key))
	return ok1 && ok2 && keyid.SameTemplate(pa.Form, pb.Form) && (pa.Index == pb.Index || pa.Name == pb.Name)
}
