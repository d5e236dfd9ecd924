// Package lockid decides which keys are lock keys, from evidence in the
// package rather than from names: a key is a lock key at an operation when
//
//   - the same function (or a function it encloses: a defer, a returned
//     release closure) acquires the same key (keyid.Same) before it;
//   - another function of the package acquires a key of the same shape
//     (keyid.SameShape: the same struct field, package-level variable,
//     constant, or fmt.Sprintf format) — the Lock/Unlock method pair; or
//     a key built by the same key helper with the same template
//     (storage.GetRedisKey(deviceLockFmt, id) in both), when the call, the
//     helper's returned key or either function names a lock (ShapeCounts);
//   - the key is a parameter of a same-package helper, and some call of
//     that helper passes a key that is a lock key at the call site
//     (defer release(ctx, rdb, key) after acquiring key);
//   - the key is built from a parameter of a release or renew helper the
//     same way a counterpart acquire helper builds its key from its own
//     parameter (Lock/Unlock, Acquire/Release: counterpart.go);
//   - the key is a field that the acquiring function stores the acquired
//     key in, and nothing else is stored in it (a lock value returned
//     to the caller, released through its method: holder.go);
//   - a GETSET of the key (or of a key of its shape) writes the token an
//     acquire of the package writes and compares the value it replaced
//     with it: the holder renewing its own lock (token.go);
//   - the key is an element of a slice that an acquire's key is appended
//     to (a lock per element of a batch), or of the slice a counterpart
//     acquire helper returns so (LockKeys/UnlockKeys), or a key of a map
//     the acquire writes it into; or an element (a key) of a
//     package-level slice (map) that a helper, called after the acquire
//     with its key, appends (writes) it to (a registry of held locks that
//     a renewal ranges over): collect.go.
//
// When none holds, the key is not a lock key and checks stay silent.
//
// An acquired key is not always a lock: Role reads its life in the
// package (what counts on it, when it is deleted) and says counter or
// marker where a check would otherwise speak of a lock (role.go).
package lockid

import (
	"cmp"
	"go/ast"
	"go/types"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockname"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Evidence says why a key is a lock key.
type Evidence uint8

const (
	// SameFunc: acquired earlier in the same function or an enclosing one.
	SameFunc Evidence = iota + 1
	// SameShape: a key of the same shape is acquired elsewhere in the package.
	SameShape
	// ViaHelper: passed to this helper by a caller that acquired it.
	ViaHelper
	// Counterpart: op's function releases or renews what a counterpart
	// function acquires (Lock/Unlock, Acquire/Release, …), both building
	// the key the same way from a parameter (counterpart.go).
	Counterpart
	// Stored: op's key is a field that the acquiring function stores the
	// acquired key in (return &redisLock{key: key}), and every store of
	// the field in the package is such a key (holder.go).
	Stored
	// Token: the key holds the lock's token. A GETSET of it (or of a key
	// of its shape) writes the value an acquire of the package writes
	// and compares the value it replaced with it: the holder renewing
	// its own lock (token.go). Call is the GETSET.
	Token
)

// Lock is the evidence that a key is a lock key.
type Lock struct {
	Acquire  *redisops.Op // the acquire that makes it a lock
	Evidence Evidence
	// Call is, for ViaHelper, the call of the helper that passes the key.
	Call *ast.CallExpr
	// Field and Store are, for Stored, the field that holds the lock's
	// key and where the acquiring function stores it (a composite
	// literal's element or an assignment).
	Field *types.Var
	Store ast.Node
}

// Locks answers lock-key questions for one package. It is shared by the
// checks of the package (they may ask concurrently), so its indexes are
// built once.
type Locks struct {
	pass     *analysis.Pass
	res      *redisops.Result
	acquires []*redisops.Op

	idxOnce   sync.Once
	idx       *index // candidate index, built on demand
	callsOnce sync.Once
	calls     []sameCall                      // same-package static calls, by position
	byCallee  map[*types.Func][]*ast.CallExpr // the same, by callee
	cps       counterparts                    // counterpart helpers, indexed on demand

	namedOnce     sync.Once
	namedBuilders map[*types.Func]bool // key helpers of the package whose key names a lock

	tokenOnce sync.Once
	tokens    []tokenGetSet // GETSETs of a lock's token (token.go)

	rolesMu sync.Mutex
	roles   map[*redisops.Op]Role // Role's answers

	holdOnce sync.Once
	hold     *holders // fields that hold acquired keys (holder.go)

	fieldsOnce sync.Once
	fields     map[*types.Var][]ast.Expr // the values written to each field (fresh.go)

	collectMu sync.Mutex
	collect   map[*redisops.Op][]keyid.Form  // the slices each acquire's key is appended to (collect.go)
	tracks    map[ast.Node][]trackCall       // each function's calls of tracking helpers (collect.go)
	tracked   map[*types.Func][][]keyid.Form // each helper's collections, by parameter (collect.go)
}

type locksKey struct{}

// New returns the lock evidence of the package in pass: one value per
// package, shared through res by every check that asks.
func New(pass *analysis.Pass, res *redisops.Result) *Locks {
	return res.Shared(locksKey{}, func() any { return newLocks(pass, res) }).(*Locks)
}

func newLocks(pass *analysis.Pass, res *redisops.Result) *Locks {
	l := &Locks{pass: pass, res: res}
	for _, op := range res.Ops {
		if op.Kind == redisops.Acquire && op.Key() != nil {
			l.acquires = append(l.acquires, op)
		}
	}
	return l
}

// Acquires lists every acquire in the package, in source order.
func (l *Locks) Acquires() []*redisops.Op { return l.acquires }

// Of returns the evidence that key, used by op, is a lock key, or nil.
func (l *Locks) Of(op *redisops.Op, key ast.Expr) *Lock {
	if len(l.acquires) == 0 || key == nil {
		return nil
	}
	if op.KeysSpread {
		return l.collectedOf(op, key) // key is the slice of keys (KeySlice), as in Match
	}
	if lk := l.sameFunc(op, key); lk != nil {
		return lk
	}
	for _, i := range l.acquiresShaped(op, key) {
		if a := l.acquires[i]; a.Func != op.Func && l.sameShape(a, op, key) && l.ShapeCounts(a, op, key) {
			return &Lock{Acquire: a, Evidence: SameShape}
		}
	}
	if lk := l.counterpartOf(op, key); lk != nil {
		return lk
	}
	if lk := l.viaHelper(op, key); lk != nil {
		return lk
	}
	if lk := l.stored(op, key); lk != nil {
		return lk
	}
	if lk := l.tokenHeld(op, key); lk != nil {
		return lk
	}
	return l.collectedOf(op, key)
}

// sameFunc finds an acquire of key earlier in op's function or in a
// function that lexically encloses it.
func (l *Locks) sameFunc(op *redisops.Op, key ast.Expr) *Lock {
	if op.Func == nil {
		return nil
	}
	// Such an acquire lies before op in op's top-level declaration.
	form := op.FormOf(key)
	for _, i := range l.acquiresOn(form, l.index().declStart(op.Call.Pos()), op.Call.Pos()) {
		a := l.acquires[i]
		if a.Func == nil || a.Call.Pos() >= op.Call.Pos() {
			continue
		}
		if a.Func != op.Func && !astx.Encloses(a.Func.Node, op.Func.Node) {
			continue
		}
		if keyid.Same(a.KeyForm(), form) {
			return &Lock{Acquire: a, Evidence: SameFunc}
		}
	}
	return nil
}

// viaHelper handles a key that is a parameter of op's enclosing function
// declaration: it is a lock key when a same-package caller passes a lock key
// in that position.
func (l *Locks) viaHelper(op *redisops.Op, key ast.Expr) *Lock {
	fn, index, ok := l.keptParam(op, key)
	if !ok {
		return nil
	}
	for _, call := range l.CallsOf(fn) {
		named, ok := l.atCall(op, key, call, index)
		if !ok {
			continue
		}
		for _, i := range l.acquiresOn(named, l.index().declStart(call.Pos()), call.Pos()) {
			a := l.acquires[i]
			// The call must be in a.Func or a closure inside it.
			if a.Func == nil || a.Call.Pos() >= call.Pos() || !astx.Encloses(a.Func.Node, call) {
				continue
			}
			if keyid.Same(a.KeyForm(), named) {
				return &Lock{Acquire: a, Evidence: ViaHelper, Call: call}
			}
		}
	}
	return nil
}

// keptParam is, when key (used by op) is by itself a parameter of op's
// function declaration that it never writes, that function and the
// parameter's position.
func (l *Locks) keptParam(op *redisops.Op, key ast.Expr) (*types.Func, int, bool) {
	if op.Func == nil {
		return nil, -1, false
	}
	if _, ok := op.Func.Node.(*ast.FuncDecl); !ok {
		return nil, -1, false
	}
	sc := op.Func.Scope()
	index, ok := sc.KeptParam(key)
	if !ok || sc.Func() == nil {
		return nil, -1, false
	}
	return sc.Func(), index, true
}

// atCall is the key that key, a parameter of op's function at index,
// names at call, a call of that function in the package: op's form of
// key with the parameter bound to the call's argument and the receiver
// to the call's (keyid.Bind), read where the call is.
func (l *Locks) atCall(op *redisops.Op, key ast.Expr, call *ast.CallExpr, index int) (keyid.Form, bool) {
	if index >= len(call.Args) || call.Ellipsis.IsValid() {
		return keyid.Form{}, false
	}
	sc := l.scopeAt(call)
	if sc == nil {
		return keyid.Form{}, false
	}
	var recv keyid.Form
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := l.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal {
			recv = sc.Of(sel.X)
		}
	}
	return keyid.Bind(op.FormOf(key), sc.Of(call.Args[index]), recv), true
}

// scopeAt is the key scope of the function declaration holding pos
// (one per declaration, shared with its operations'), or nil.
func (l *Locks) scopeAt(pos ast.Node) *keyid.Scope {
	for _, f := range l.res.Funcs {
		if astx.Encloses(f.Node, pos) {
			return f.Scope()
		}
	}
	return nil
}

// sameShape reports whether a's key and key, used by op in another
// function, have the same shape (keyid.SameShape).
func (l *Locks) sameShape(a, op *redisops.Op, key ast.Expr) bool {
	return keyid.SameShape(a.KeyForm(), op.FormOf(key))
}

// CallsOf lists the package's static calls of fn.
func (l *Locks) CallsOf(fn *types.Func) []*ast.CallExpr {
	l.indexCalls()
	return l.byCallee[fn]
}

// sameCalls lists the package's static calls of its own functions, by
// position.
func (l *Locks) sameCalls() []sameCall {
	l.indexCalls()
	return l.calls
}

// indexCalls finds the package's static calls of its own functions, once.
func (l *Locks) indexCalls() {
	l.callsOnce.Do(func() {
		l.byCallee = map[*types.Func][]*ast.CallExpr{}
		for n := range l.res.Inspector.PreorderSeq((*ast.CallExpr)(nil)) {
			call := n.(*ast.CallExpr)
			if f, ok := typeutil.Callee(l.pass.TypesInfo, call).(*types.Func); ok && f.Pkg() == l.pass.Pkg {
				l.calls = append(l.calls, sameCall{call.Pos(), f})
				l.byCallee[f] = append(l.byCallee[f], call)
			}
		}
		slices.SortStableFunc(l.calls, func(a, b sameCall) int { return cmp.Compare(a.pos, b.pos) })
	})
}

// ShapeCounts reports whether a shape match of a's key with op's key
// counts as the same lock. An acquire in a _test.go file counts only for
// operations in test files: a fixture that plays another holder says
// nothing of the keys of the code under test. A bare string literal on both sides ("key") is
// weak evidence: a client's own test suite reuses one literal for every
// command in unrelated tests (found by the sweep in go-redis), so such a
// pair counts only when the key or either function is named like a lock.
// So does a pair of keys built by the same helper (keyid.KeyBuilder): a
// package's one key function (prefix + name) builds its caches' keys as
// well as its locks', so the call (the template it is given, the helper's
// name), what a helper of this package returns ("lock:job:" + name), or
// either function must name a lock (storage.GetRedisKey(deviceLockKey,
// id), lockKey(id), getDeviceLock).
//
// A key that the package counts on where op uses it (Counted) is no
// lock by its shape alone: a counter of the same look is as likely.
//
// ShapeCounts is exported for tests that scan without the index.
func (l *Locks) ShapeCounts(a, op *redisops.Op, key ast.Expr) bool {
	if l.inTest(a) && !l.inTest(op) || l.Counted(op, key) {
		return false
	}
	info := l.pass.TypesInfo
	ka, kb := ast.Unparen(l.shaped(a, a.Key())), ast.Unparen(l.shaped(op, key))
	_, la := ka.(*ast.BasicLit)
	_, lb := kb.(*ast.BasicLit)
	if la && lb {
		return Named(info, a) || Named(info, op)
	}
	fa, fb := l.builder(ka), l.builder(kb)
	if fa == nil && fb == nil {
		return true
	}
	return lockname.LockLike(keyText(info, ka), false) || lockname.LockLike(keyText(info, kb), false) ||
		l.builderNamed(fa) || l.builderNamed(fb) || Named(info, a) || Named(info, op)
}

func (l *Locks) inTest(op *redisops.Op) bool {
	return astx.InTest(l.pass.Fset, op.Call.Pos())
}

// builder is the key-building helper key calls, or nil.
func (l *Locks) builder(key ast.Expr) *types.Func {
	call, ok := key.(*ast.CallExpr)
	if !ok {
		return nil
	}
	return keyid.KeyBuilder(l.pass.TypesInfo, call)
}

// builderNamed reports whether fn is a function of this package whose
// returned key names a lock (return "lock:job:" + name).
func (l *Locks) builderNamed(fn *types.Func) bool {
	if fn == nil || fn.Pkg() != l.pass.Pkg {
		return false
	}
	l.namedOnce.Do(func() {
		info := l.pass.TypesInfo
		l.namedBuilders = map[*types.Func]bool{}
		for _, f := range l.pass.Files {
			for _, d := range f.Decls {
				decl, ok := d.(*ast.FuncDecl)
				if !ok || decl.Body == nil || decl.Type.Results == nil || len(decl.Type.Results.List) != 1 {
					continue
				}
				fn, ok := info.Defs[decl.Name].(*types.Func)
				if !ok {
					continue
				}
				ast.Inspect(decl.Body, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncLit:
						return false
					case *ast.ReturnStmt:
						if len(n.Results) == 1 && lockname.LockLike(keyText(info, n.Results[0]), false) {
							l.namedBuilders[fn] = true
						}
					}
					return true
				})
			}
		}
	})
	return l.namedBuilders[fn]
}
