package lockid

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/guard"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Role is what an acquired key is for, judged from everything the package
// does with it, not from its name or from the NX alone.
type Role uint8

const (
	// RoleLock: held by the process that claimed it and released (or left
	// to expire) when the work is done. The default.
	RoleLock Role = iota
	// RoleCounter: a number that the package moves (INCR, DECR, INCRBY,
	// HINCRBY, or a script that counts on it); an NX write only creates
	// it. Deleting or expiring it takes no holder's lock.
	RoleCounter
	// RoleMarker: a claim kept after the work succeeds (a dedupe or
	// idempotency key) and deleted only when the work failed, so that a
	// retry can claim it again: every delete of it runs only with an error
	// set, in a function that claimed it.
	RoleMarker
)

func (r Role) String() string {
	switch r {
	case RoleCounter:
		return "counter"
	case RoleMarker:
		return "marker"
	}
	return "lock"
}

// Role is the role of a's key. A key counted on in a's own function, or
// claimed with a zero and counted on anywhere in the package, is a
// counter; a key whose every release is a delete that runs only on an
// error path is a marker; any other is a lock. One delete on a success
// path (or a deferred unconditional one) makes a marker a lock again.
func (l *Locks) Role(a *redisops.Op) Role {
	l.rolesMu.Lock()
	r, ok := l.roles[a]
	l.rolesMu.Unlock()
	if ok {
		return r
	}
	r = l.role(a)
	l.rolesMu.Lock()
	if l.roles == nil {
		l.roles = map[*redisops.Op]Role{}
	}
	l.roles[a] = r
	l.rolesMu.Unlock()
	return r
}

func (l *Locks) role(a *redisops.Op) Role {
	if a.Func == nil || a.Key() == nil {
		return RoleLock
	}
	af := a.KeyForm()
	for _, c := range l.counters(a, a.Key()) {
		// Counted in the same function (SETNX key 0, then INCR), or
		// elsewhere when the NX write is a zero to count from: a lock's
		// value is a token or a flag, not a zero.
		if keyid.Same(af, c) || zeroValue(l.pass.TypesInfo, a.Value) {
			return RoleCounter
		}
	}
	rels := l.Releases(a)
	if len(rels) == 0 {
		return RoleLock
	}
	for _, r := range rels {
		if r.Op.Kind != redisops.Delete || !l.onError(r.Op, r.Key) {
			return RoleLock
		}
	}
	return RoleMarker
}

// onError reports whether the delete d of key runs only with an error set
// since an acquire of the same key in d's function (or one enclosing it),
// an error of the work: one that a Redis call returned (the GET of an
// owner check) says nothing of whether the work failed.
func (l *Locks) onError(d *redisops.Op, key ast.Expr) bool {
	lk := l.sameFunc(d, key)
	if c := l.collectedOf(d, key); lk == nil && c != nil && c.Evidence == SameFunc {
		lk = c // the slice the acquire's key is appended to (collect.go)
	}
	if lk == nil {
		return false
	}
	info := l.pass.TypesInfo
	for _, f := range guard.Facts(info, d.Cursor, d.Func.Node, lk.Acquire.Call.Pos()) {
		if f.ErrorSet(info) && !l.redisError(f, lk.Acquire) {
			return true
		}
	}
	return false
}

// redisError reports whether the error that fact f tests was last
// assigned, before f's if statement, from a Redis call other than the
// acquire a (in a's function): a failed claim is no release either.
func (l *Locks) redisError(f guard.Fact, a *redisops.Op) bool {
	fn := a.Func.Node
	b := f.Cond.(*ast.BinaryExpr) // ErrorSet holds
	id, _ := ast.Unparen(b.X).(*ast.Ident)
	if id == nil {
		id, _ = ast.Unparen(b.Y).(*ast.Ident)
	}
	if id == nil {
		return false
	}
	v := l.pass.TypesInfo.ObjectOf(id)
	var rhs []ast.Expr
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == nil || n.Pos() >= f.Cond.Pos() {
			return false
		}
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, lhs := range as.Lhs {
				if x, ok := lhs.(*ast.Ident); ok && l.pass.TypesInfo.ObjectOf(x) == v {
					rhs = as.Rhs
				}
			}
		}
		return true
	})
	for _, e := range rhs {
		for _, op := range l.res.Ops {
			if op != a && e.Pos() <= op.Call.Pos() && op.Call.End() <= e.End() {
				return true
			}
		}
	}
	return false
}

// Counted reports whether key, used by op, is a counter where it is used:
// an INCR, DECR, INCRBY, HINCRBY or counting script of the package acts
// on the same key in op's function, or on a key of the same shape
// elsewhere. A delete or an expire of such a key that only the shape
// connects to a lock may be the counter's: the shape is no evidence then
// (ShapeCounts), though a Lock/Unlock pair or a helper called with the
// lock's key still is.
func (l *Locks) Counted(op *redisops.Op, key ast.Expr) bool {
	return len(l.counters(op, key)) > 0
}

// counters are the forms of the counted keys (Counted) that match key,
// used by op.
func (l *Locks) counters(op *redisops.Op, key ast.Expr) []keyid.Form {
	if op.Func == nil || key == nil {
		return nil
	}
	x := l.index()
	f := op.FormOf(key)
	var out []keyid.Form
	seen := map[int]bool{}
	for _, anc := range l.shapeKeys(op, key) {
		for _, i := range x.opsByShape[anc] {
			c := x.ops[i]
			ck := countedKey(c)
			if ck == nil || seen[i] {
				continue
			}
			seen[i] = true
			if g := c.FormOf(ck); keyid.Same(f, g) || keyid.SameShape(f, g) {
				out = append(out, g)
			}
		}
	}
	return out
}

// countedKey is the key that op counts on, or nil.
func countedKey(op *redisops.Op) ast.Expr {
	switch {
	case len(op.Keys) == 0:
	case op.Kind == redisops.Counter:
		return op.Keys[0]
	case op.Kind == redisops.Script && op.ScriptSrc != "" && lua.Classify(op.ScriptSrc).Counts:
		return op.Keys[0]
	}
	return nil
}

// zeroValue reports whether v is the constant 0 (or "0").
func zeroValue(info *types.Info, v ast.Expr) bool {
	if v == nil {
		return false
	}
	tv, ok := info.Types[v]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	case constant.String:
		return constant.StringVal(tv.Value) == "0"
	}
	return false
}
