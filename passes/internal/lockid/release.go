package lockid

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockname"
	"github.com/lockvet/lockvet/passes/redisops"
)

// This file asks the lock question in reverse: given an acquire, which
// operations of the package touch its key, and which of them release it.

// Release is an operation that releases the key of an acquire.
type Release struct {
	Op       *redisops.Op
	Key      ast.Expr // the key expression of Op that names the lock
	Evidence Evidence
	// Call is, for ViaHelper, the call in the acquiring function of the
	// helper that holds Op.
	Call *ast.CallExpr
	// Store is, for Stored, where a's function stores the key in the
	// field Op uses.
	Store ast.Node
	// Checked is set for a script that deletes the key only when it still
	// holds the owner's token (compare-and-delete).
	Checked bool
}

// Match reports whether key, used by op, names the key acquired by a:
//
//   - SameFunc: op is in a's function (or a function literal inside it)
//     and keyid.Same holds there (the caller decides whether op must come
//     after a);
//   - SameShape: op is in another function and keyid.SameShape holds;
//   - ViaHelper: key is a parameter of op's function declaration, and a's
//     function calls it after a, passing a's key (call is that call);
//   - Counterpart: op's function is a release or renew counterpart of a's
//     (Lock/Unlock, …) and builds key from a parameter as a's does;
//   - Stored: key is a field that a's function stores a's key in
//     (holder.go).
//
// It returns 0 when key is not a's key.
func (l *Locks) Match(a, op *redisops.Op, key ast.Expr) (Evidence, *ast.CallExpr) {
	if a.Func == nil || op.Func == nil || a.Key() == nil || key == nil {
		return 0, nil
	}
	if op.KeysSpread {
		return l.collects(a, op, key), nil // collect.go
	}
	if op.Func == a.Func || astx.Encloses(a.Func.Node, op.Func.Node) {
		if keyid.Same(a.KeyForm(), op.FormOf(key)) {
			return SameFunc, nil
		}
		return l.collects(a, op, key), nil
	}
	if l.sameShape(a, op, key) && l.ShapeCounts(a, op, key) {
		return SameShape, nil
	}
	if l.isCounterpart(a, op, key) {
		return Counterpart, nil
	}
	if call := l.helperCall(a, op, key); call != nil {
		return ViaHelper, call
	}
	if l.storedIn(a, op, key) != nil {
		return Stored, nil
	}
	return l.collects(a, op, key), nil
}

// Releases lists the operations that release a's key: a DEL/UNLINK of it,
// a compare-and-delete (DELEX IFEQ), or a Lua script that deletes it
// (compare-and-delete or unchecked). In
// a's own function only operations that can run after a count.
func (l *Locks) Releases(a *redisops.Op) []Release {
	if a.Func == nil || a.Key() == nil {
		return nil // Match finds nothing
	}
	var rels []Release
	for _, d := range l.Candidates(a) {
		var keys []ast.Expr
		checked := false
		switch d.Kind {
		case redisops.Delete:
			keys = d.KeyArgs() // the keys, or the slice that holds them (collect.go)
		case redisops.CompareDelete:
			keys, checked = d.Keys[:1], true
		case redisops.Script:
			if d.ScriptSrc == "" || len(d.Keys) == 0 {
				continue
			}
			switch lua.Classify(d.ScriptSrc).Kind {
			case lua.CompareAndDelete:
				checked = true
			case lua.UncheckedDelete:
			default:
				continue
			}
			keys = d.Keys[:1]
		default:
			continue
		}
		for _, k := range keys {
			ev, call := l.Match(a, d, k)
			if ev == 0 || ev == SameFunc && !After(a, d) {
				continue
			}
			rel := Release{Op: d, Key: k, Evidence: ev, Call: call, Checked: checked}
			if ev == Stored {
				rel.Store = l.storedIn(a, d, k)
			}
			rels = append(rels, rel)
			break
		}
	}
	return rels
}

// After reports whether op can run after a, both in a's function (or op in
// a function literal inside it): op is written after a and, in the same
// function, reachable from it.
func After(a, op *redisops.Op) bool {
	if op.Call.Pos() <= a.Call.End() {
		return false
	}
	return op.Func != a.Func || a.Func.Reachable(a.Call.Pos(), op.Call.Pos())
}

// helperCall finds, for a key that is a parameter of op's enclosing
// function declaration, a call of that function in a's function after a
// that passes a's key in that position.
func (l *Locks) helperCall(a, op *redisops.Op, key ast.Expr) *ast.CallExpr {
	fn, index, ok := l.keptParam(op, key)
	if !ok {
		return nil
	}
	for _, call := range l.CallsOf(fn) {
		if call.Pos() <= a.Call.End() || !astx.Encloses(a.Func.Node, call) {
			continue
		}
		if named, ok := l.atCall(op, key, call, index); ok && keyid.Same(a.KeyForm(), named) {
			return call
		}
	}
	return nil
}

// Named reports whether op's key, or the function declaration holding op
// (its name or its receiver's type name), is named like a lock: a word
// starting with "lock" or "unlock", or "mutex"; for the function also
// "acquire" and "release". It is a weaker signal than the evidence above,
// for checks that need a second reason before they speak.
func Named(info *types.Info, op *redisops.Op) bool {
	if k := op.Key(); k != nil {
		if lockname.LockLike(keyText(info, k), false) {
			return true
		}
	}
	for c := range op.Cursor.Enclosing((*ast.FuncDecl)(nil)) {
		decl := c.Node().(*ast.FuncDecl)
		if lockname.LockLike(decl.Name.Name, true) {
			return true
		}
		if decl.Recv != nil && len(decl.Recv.List) == 1 {
			t := decl.Recv.List[0].Type
			for {
				switch x := t.(type) {
				case *ast.StarExpr:
					t = x.X
					continue
				case *ast.IndexExpr:
					t = x.X
					continue
				case *ast.IndexListExpr:
					t = x.X
					continue
				}
				break
			}
			if id, ok := t.(*ast.Ident); ok && lockname.LockLike(id.Name, true) {
				return true
			}
		}
	}
	return false
}

// NamedToAcquire reports whether the function declaration holding op is
// named to take a lock (lockname.Split: Lock, TryLock, setDeviceLock,
// acquireSlot, …), not to release or renew one.
func NamedToAcquire(op *redisops.Op) bool {
	for c := range op.Cursor.Enclosing((*ast.FuncDecl)(nil)) {
		role, _ := lockname.Split(c.Node().(*ast.FuncDecl).Name.Name)
		return role == lockname.Acquires
	}
	return false
}

// keyText is the identifiers and string constants of a key expression,
// with constant identifiers replaced by their value.
func keyText(info *types.Info, e ast.Expr) string {
	var b strings.Builder
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			b.WriteString(n.Name + " ")
			if tv, ok := info.Types[n]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
				b.WriteString(constant.StringVal(tv.Value) + " ")
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				if s, err := strconv.Unquote(n.Value); err == nil {
					b.WriteString(s + " ")
				}
			}
		}
		return true
	})
	return b.String()
}

// TokenWrite returns a write of key, in the function declaration that
// holds op, whose value is token and which sets a TTL: a lease its holder
// takes or extends with its own token, the same token a GET's value is
// compared with before op deletes the key:
//
//	v, err := tx.Get(ctx, key).Result()
//	… if v != id { return nil } …
//	if ttl <= 0 { p.Del(ctx, key) } else { p.Set(ctx, key, id, ttl) }
//
// A one-time code is compared with the user's input and deleted, but
// never written with that input: nil. So is a token that is a constant
// (the same for every holder: a state flag, not an owner).
func (l *Locks) TokenWrite(op *redisops.Op, key, token ast.Expr) *redisops.Op {
	info := l.pass.TypesInfo
	if op.Func == nil || key == nil || token == nil {
		return nil
	}
	if tv, ok := info.Types[token]; ok && tv.Value != nil {
		return nil
	}
	var decl *ast.FuncDecl
	for c := range op.Cursor.Enclosing((*ast.FuncDecl)(nil)) {
		decl = c.Node().(*ast.FuncDecl)
		break
	}
	if decl == nil {
		return nil
	}
	form, tok := op.FormOf(key), op.FormOf(token)
	for _, w := range l.res.Ops {
		if w.Kind != redisops.Write && w.Kind != redisops.Acquire || w.Func == nil || w.Value == nil || w.Key() == nil ||
			w.TTL == nil || w.NoTTL || w.NonPositiveTTL() || w.Probe || !astx.Encloses(decl, w.Call) {
			continue
		}
		if keyid.Same(w.KeyForm(), form) && keyid.Same(w.FormOf(w.Value), tok) {
			return w
		}
	}
	return nil
}

// exercisedMethods is how many different Redis methods one function
// must apply to the same literal key before Exercised calls it a test
// of the client's commands rather than lock code. Lock code applies
// four or five to its key (acquire, GET, DEL or a script, EXPIRE,
// PEXPIRE).
const exercisedMethods = 8

// Exercised reports whether op's key is a literal that the function
// holding op exercises with many different commands (at least
// exercisedMethods), and that is not named like a lock: a client's own
// test queuing every command on key "1" (Expire, ExpireAt, …, GetSet,
// SetNX, …) holds every shape of lock code and is none.
func Exercised(info *types.Info, op *redisops.Op) bool {
	k := op.Key()
	if op.Func == nil || k == nil || Named(info, op) {
		return false
	}
	if tv, ok := info.Types[k]; !ok || tv.Value == nil {
		return false
	}
	methods := map[string]bool{}
	for _, o := range op.Func.OpsOn(op.KeyForm()) {
		methods[o.Method] = true
	}
	return len(methods) >= exercisedMethods
}
