package lockid

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// A lock is often kept in a value of its own once it is taken, and
// released or renewed through it:
//
//	ok, err := l.rdb.SetNX(ctx, key, token, ttl)
//	…
//	return &redisLock{rdb: l.rdb, key: key}, nil
//
//	func (l *redisLock) Release(ctx context.Context) error {
//		return l.rdb.Del(ctx, l.key)
//	}
//
// A field that the acquiring function stores its acquired key in (an
// element of a composite literal, or an assignment x.key = key, after the
// acquire) holds that lock's key wherever it is read: an operation on the
// field is on the lock (Evidence Stored; Lock.Field and Lock.Store say
// which field, and where the key is stored). It counts only when every
// store of the field in the package is such a key: a field that also
// holds other keys says nothing of which one an operation names.

// holder is one store of an acquired key in a field.
type holder struct {
	acquire *redisops.Op
	store   ast.Node // the composite literal element or the assignment
}

// holders indexes the fields that hold acquired keys, and the operations
// whose key is such a field.
type holders struct {
	byField map[*types.Var][]holder
	ops     map[*types.Var][]int // indices in res.Ops of the ops on the field
	byAcq   map[*redisops.Op][]*types.Var
}

func (l *Locks) holders() *holders {
	l.holdOnce.Do(l.buildHolders)
	return l.hold
}

// buildHolders walks the package's composite literals and field
// assignments once, in packages where some operation's key is a field.
func (l *Locks) buildHolders() {
	h := &holders{byField: map[*types.Var][]holder{}, ops: map[*types.Var][]int{}, byAcq: map[*redisops.Op][]*types.Var{}}
	l.hold = h
	for i, op := range l.res.Ops {
		for _, k := range op.Keys {
			if f, ok := op.FormOf(k).Field(); ok {
				if s := h.ops[f]; len(s) == 0 || s[len(s)-1] != i {
					h.ops[f] = append(s, i)
				}
			}
		}
	}
	if len(h.ops) == 0 {
		return
	}
	info := l.pass.TypesInfo
	bad := map[*types.Var]bool{} // a field that also holds something else
	store := func(f *types.Var, value ast.Expr, at ast.Node) {
		if h.ops[f] == nil || bad[f] {
			return
		}
		if a := l.acquiredBefore(value, at); a != nil {
			h.byField[f] = append(h.byField[f], holder{acquire: a, store: at})
			return
		}
		bad[f] = true
	}
	astx.FieldWrites(info, l.res.Inspector, func(f *types.Var, value ast.Expr, at ast.Node) {
		if value == nil {
			bad[f] = true
		} else {
			store(f, value, at)
		}
	})
	for f := range bad {
		delete(h.byField, f)
	}
	for f, hs := range h.byField {
		for _, x := range hs {
			if !slices.Contains(h.byAcq[x.acquire], f) {
				h.byAcq[x.acquire] = append(h.byAcq[x.acquire], f)
			}
		}
	}
}

// acquiredBefore is the acquire of the key value, stored at at: an
// acquire earlier in the function that holds at (or one enclosing it)
// whose key is the same (keyid.Same). Nil when value is no acquired key.
func (l *Locks) acquiredBefore(value ast.Expr, at ast.Node) *redisops.Op {
	sc := l.scopeAt(at)
	if sc == nil {
		return nil
	}
	form := sc.Of(value)
	for _, i := range l.acquiresOn(form, l.index().declStart(at.Pos()), at.Pos()) {
		a := l.acquires[i]
		if a.Func != nil && containsNode(a.Func.Node, at) && keyid.Same(a.KeyForm(), form) {
			return a
		}
	}
	return nil
}

func containsNode(outer, inner ast.Node) bool {
	return outer.Pos() <= inner.Pos() && inner.End() <= outer.End()
}

// stored finds, for key used by op that is a field, the acquire whose key
// its package stores in that field (see above).
func (l *Locks) stored(op *redisops.Op, key ast.Expr) *Lock {
	f, ok := op.FormOf(key).Field()
	if !ok {
		return nil
	}
	hs := l.holders().byField[f]
	if len(hs) == 0 {
		return nil
	}
	return &Lock{Acquire: hs[0].acquire, Evidence: Stored, Field: f, Store: hs[0].store}
}

// storedIn reports whether key, used by op, is a field in which a's key
// is stored, and where.
func (l *Locks) storedIn(a, op *redisops.Op, key ast.Expr) ast.Node {
	f, ok := op.FormOf(key).Field()
	if !ok {
		return nil
	}
	for _, x := range l.holders().byField[f] {
		if x.acquire == a {
			return x.store
		}
	}
	return nil
}

// storedOps are the indices in res.Ops of the operations on the fields
// a's key is stored in.
func (l *Locks) storedOps(a *redisops.Op) []int {
	h := l.holders()
	var out []int
	for _, f := range h.byAcq[a] {
		out = append(out, h.ops[f]...)
	}
	return out
}
