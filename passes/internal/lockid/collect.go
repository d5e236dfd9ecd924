package lockid

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockname"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Locks per element of a batch (keyid.Collected): an acquire whose key is
// appended to a slice takes one lock per element of that slice, and a
// release of the slice (Del(ctx, keys...), or a DEL of each element in a
// range loop over it) releases them. The release is the acquire's:
//
//   - SameFunc: in the acquire's function (or one inside it), the same
//     slice variable (keyid.SameSlice);
//   - SameShape: in another function, a slice of the same shape (the
//     same field: l.keys in MLock and in MUnlock), when the code names a
//     lock (Named: the functions, the receiver's type or the key);
//   - Counterpart: the acquire's function returns the slice, and the
//     release is in a release counterpart of it (LockKeys/UnlockKeys,
//     counterpart.go) that deletes the elements of a slice parameter.

// releasedSlice is the form of the slice key names, used by op: the
// slice itself for a spread or slice argument, the ranged slice for an
// element of one.
func releasedSlice(op *redisops.Op, key ast.Expr) (keyid.Form, bool) {
	if op.KeysSpread {
		return op.FormOf(key), true
	}
	return keyid.SliceOf(op.FormOf(key))
}

// collected is the forms of the slices a's key is appended to, read once.
func (l *Locks) collected(a *redisops.Op) []keyid.Form {
	l.collectMu.Lock()
	defer l.collectMu.Unlock()
	if f, ok := l.collect[a]; ok {
		return f
	}
	var f []keyid.Form
	if a.Func != nil && a.Key() != nil {
		f = a.Func.Scope().Collected(a.Key())
		f = append(f, l.trackedBy(a)...)
	}
	if l.collect == nil {
		l.collect = map[*redisops.Op][]keyid.Form{}
	}
	l.collect[a] = f
	return f
}

// trackedBy lists the package-level slices and maps that a helper of the
// package, called after a in a's function with a's key, appends the key
// to or writes it into as a key (autoRenewal(key) doing states[key] =
// ctrl): a renewal or release that ranges over that collection handles
// a's key. Only package-level collections count: a helper's own locals
// are gone when it returns.
func (l *Locks) trackedBy(a *redisops.Op) []keyid.Form {
	var out []keyid.Form
	sc := a.Func.Scope()
	for _, tc := range l.trackCalls(a.Func.Node) {
		if tc.call.Pos() <= a.Call.End() || !sc.Same(a.Key(), tc.call.Args[tc.index]) {
			continue
		}
		out = append(out, tc.forms...)
	}
	return out
}

// trackCall is a call of a helper of the package that appends its
// argument at index to, or writes it as a key into, the package-level
// collections forms.
type trackCall struct {
	call  *ast.CallExpr
	index int
	forms []keyid.Form
}

// trackCalls lists the calls of tracking helpers in the function fn, found
// in one walk of it per Locks: trackedBy asks for every acquire of the
// function, and a walk per acquire is quadratic in a long function.
func (l *Locks) trackCalls(fn ast.Node) []trackCall {
	if tc, ok := l.tracks[fn]; ok {
		return tc
	}
	var out []trackCall
	info := l.pass.TypesInfo
	ast.Inspect(fn, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		callee := typeutil.StaticCallee(info, call)
		if callee == nil || callee.Pkg() != l.pass.Pkg {
			return true
		}
		byParam := l.trackedParams(callee)
		for i := range call.Args {
			if i < len(byParam) && len(byParam[i]) > 0 {
				out = append(out, trackCall{call: call, index: i, forms: byParam[i]})
			}
		}
		return true
	})
	if l.tracks == nil {
		l.tracks = map[ast.Node][]trackCall{}
	}
	l.tracks[fn] = out
	return out
}

// trackedParams is, for each parameter of fn, a function of the package,
// the package-level collections (keyid.Static) that fn appends it to or
// writes it into as a key; nil when fn has no body here. Computed once
// per fn.
func (l *Locks) trackedParams(fn *types.Func) [][]keyid.Form {
	if byParam, ok := l.tracked[fn]; ok {
		return byParam
	}
	var byParam [][]keyid.Form
	if decl := l.funcDecl(fn); decl != nil {
		sc := keyid.NewScope(l.pass.TypesInfo, decl)
		n := fn.Signature().Params().Len()
		byParam = make([][]keyid.Form, n)
		for i := range n {
			for _, c := range sc.CollectedParam(i) {
				if keyid.Static(c) {
					byParam[i] = append(byParam[i], c)
				}
			}
		}
	}
	if l.tracked == nil {
		l.tracked = map[*types.Func][][]keyid.Form{}
	}
	l.tracked[fn] = byParam
	return byParam
}

// funcDecl is the declaration of fn, a function of the package, or nil.
func (l *Locks) funcDecl(fn *types.Func) *ast.FuncDecl {
	for _, f := range l.pass.Files {
		if f.FileStart > fn.Pos() || fn.Pos() >= f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if decl, ok := d.(*ast.FuncDecl); ok && decl.Name.Pos() == fn.Pos() && decl.Body != nil {
				return decl
			}
		}
	}
	return nil
}

// collects is the evidence that key, used by op, releases the slice a's
// key is collected in, or 0.
func (l *Locks) collects(a, op *redisops.Op, key ast.Expr) Evidence {
	if a.Func == nil || op.Func == nil {
		return 0
	}
	s, ok := releasedSlice(op, key)
	if !ok {
		return 0
	}
	same := op.Func == a.Func || astx.Encloses(a.Func.Node, op.Func.Node)
	for _, c := range l.collected(a) {
		switch {
		case same && keyid.SameSlice(c, s):
			return SameFunc
		case !same && keyid.SameShape(c, s) && (Named(l.pass.TypesInfo, a) || Named(l.pass.TypesInfo, op)):
			return SameShape
		case !same && len(s.Parts) == 1 && s.Parts[0].Kind == keyid.Param && len(s.Parts[0].Path) == 0 &&
			l.returned(a, c) && l.namedPair(a, op):
			return Counterpart
		}
	}
	return 0
}

// returned reports whether a's function declaration returns the slice
// variable c.
func (l *Locks) returned(a *redisops.Op, c keyid.Form) bool {
	v := keyid.VarOf(c)
	decl, _ := l.declFunc(a.Func)
	if v == nil || decl == nil {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if id, ok := ast.Unparen(r).(*ast.Ident); ok && l.pass.TypesInfo.Uses[id] == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// namedPair reports whether op's function is named as a release or renew
// counterpart of a's (lockname.Counterparts, on one receiver type or
// both package-level).
func (l *Locks) namedPair(a, op *redisops.Op) bool {
	_, afn := l.declFunc(a.Func)
	_, fn := l.declFunc(op.Func)
	if afn == nil || fn == nil || afn == fn {
		return false
	}
	c := l.counterpartIndex()
	ga, ok1 := c.group[afn]
	g, ok2 := c.group[fn]
	return ok1 && ok2 && ga == g && lockname.Counterparts(afn.Name(), fn.Name())
}

// collectedOf finds an acquire whose key is collected in the slice key
// (used by op) names.
func (l *Locks) collectedOf(op *redisops.Op, key ast.Expr) *Lock {
	if _, ok := releasedSlice(op, key); !ok {
		return nil
	}
	for _, a := range l.acquires {
		if a == op {
			continue
		}
		if ev := l.collects(a, op, key); ev != 0 && (ev != SameFunc || a.Call.Pos() < op.Call.Pos()) {
			return &Lock{Acquire: a, Evidence: ev}
		}
	}
	return nil
}
