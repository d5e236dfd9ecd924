package lockid

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// The questions Of and Releases answer compare one operation with every
// acquire, or one acquire with every operation, of the package. Asked for
// every operation, that is quadratic in the package's lock code (and
// cubic for a check that asks per acquire and use). The index below
// narrows each question to the candidates that can possibly match, by
// position (an acquire in an enclosing function lies in the same
// top-level declaration), by key shape (keyid.ShapeKeys), and by call
// (the helpers a function calls); the full test then runs on those only,
// in the original order, so the answers are the same.

type index struct {
	acqIndex   map[*redisops.Op]int  // acquire → index in acquires
	acqByPos   []int                 // acquire indices sorted by call position
	acqByShape map[keyid.Shape][]int // acquire indices by key shape, ascending
	ops        []*redisops.Op        // res.Ops
	opsByPos   []int                 // op indices sorted by call position
	opsByShape map[keyid.Shape][]int // op indices by the shape of any key, ascending
	opsInDecl  map[*types.Func][]int // op indices by the declared function holding them
	calls      []sameCall            // same-package static calls, by position
	files      []*ast.File           // sorted by position
}

type sameCall struct {
	pos token.Pos
	fn  *types.Func
}

func (l *Locks) index() *index {
	if l.idx != nil {
		return l.idx
	}
	info := l.pass.TypesInfo
	x := &index{
		acqIndex:   map[*redisops.Op]int{},
		acqByShape: map[keyid.Shape][]int{},
		ops:        l.res.Ops,
		opsByShape: map[keyid.Shape][]int{},
		opsInDecl:  map[*types.Func][]int{},
	}
	for i, a := range l.acquires {
		x.acqIndex[a] = i
		x.acqByPos = append(x.acqByPos, i)
		for _, k := range dedupe(keyid.ShapeKeys(info, a.Key())) {
			x.acqByShape[k] = append(x.acqByShape[k], i)
		}
	}
	slices.SortStableFunc(x.acqByPos, func(i, j int) int {
		return cmp.Compare(l.acquires[i].Call.Pos(), l.acquires[j].Call.Pos())
	})
	for i, op := range x.ops {
		x.opsByPos = append(x.opsByPos, i)
		var shapes []keyid.Shape
		for _, k := range op.Keys {
			shapes = append(shapes, keyid.ShapeKeys(info, k)...)
		}
		for _, k := range dedupe(shapes) {
			x.opsByShape[k] = append(x.opsByShape[k], i)
		}
		if op.Func != nil {
			if decl, ok := op.Func.Node.(*ast.FuncDecl); ok {
				if fn, ok := info.Defs[decl.Name].(*types.Func); ok {
					x.opsInDecl[fn] = append(x.opsInDecl[fn], i)
				}
			}
		}
	}
	slices.SortStableFunc(x.opsByPos, func(i, j int) int {
		return cmp.Compare(x.ops[i].Call.Pos(), x.ops[j].Call.Pos())
	})
	x.files = slices.Clone(l.pass.Files)
	slices.SortFunc(x.files, func(a, b *ast.File) int { return cmp.Compare(a.FileStart, b.FileStart) })
	l.idx = x
	return x
}

// sameCalls lists the package's static calls of its own functions, by
// position; built on first use.
func (l *Locks) sameCalls() []sameCall {
	x := l.index()
	if x.calls == nil {
		x.calls = []sameCall{}
		for n := range l.res.Inspector.PreorderSeq((*ast.CallExpr)(nil)) {
			call := n.(*ast.CallExpr)
			if f, ok := typeutil.Callee(l.pass.TypesInfo, call).(*types.Func); ok && f.Pkg() == l.pass.Pkg {
				x.calls = append(x.calls, sameCall{call.Pos(), f})
			}
		}
		slices.SortStableFunc(x.calls, func(a, b sameCall) int { return cmp.Compare(a.pos, b.pos) })
	}
	return x.calls
}

func dedupe(s []keyid.Shape) []keyid.Shape {
	var out []keyid.Shape
	for _, k := range s {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// declStart is the start of the top-level declaration holding pos (the
// start of its file when pos lies between declarations).
func (x *index) declStart(pos token.Pos) token.Pos {
	i := sort.Search(len(x.files), func(i int) bool { return x.files[i].FileEnd >= pos })
	if i == len(x.files) || x.files[i].FileStart > pos {
		return token.NoPos
	}
	f := x.files[i]
	j := sort.Search(len(f.Decls), func(j int) bool { return f.Decls[j].End() > pos })
	if j < len(f.Decls) && f.Decls[j].Pos() <= pos {
		return f.Decls[j].Pos()
	}
	return f.FileStart
}

// acquiresBetween lists, in acquire order, the acquires whose call starts
// in [from, to).
func (l *Locks) acquiresBetween(from, to token.Pos) []int {
	x := l.index()
	pos := func(i int) token.Pos { return l.acquires[x.acqByPos[i]].Call.Pos() }
	lo := sort.Search(len(x.acqByPos), func(i int) bool { return pos(i) >= from })
	hi := sort.Search(len(x.acqByPos), func(i int) bool { return pos(i) >= to })
	out := slices.Clone(x.acqByPos[lo:max(lo, hi)])
	slices.Sort(out)
	return out
}

// acquiresShaped lists, in acquire order, the acquires whose key may have
// the shape of key.
func (l *Locks) acquiresShaped(key ast.Expr) []int {
	x := l.index()
	var out []int
	for _, k := range keyid.ShapeKeys(l.pass.TypesInfo, key) {
		out = append(out, x.acqByShape[k]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// releaseCandidates lists, in res.Ops order, the operations that can
// release a's key (see Match): those inside a's function, those with a key
// of the same shape, and those in same-package functions that a's function
// calls after a.
func (l *Locks) releaseCandidates(a *redisops.Op) []*redisops.Op {
	x := l.index()
	var idx []int
	from, to := a.Func.Node.Pos(), a.Func.Node.End()
	pos := func(i int) token.Pos { return x.ops[x.opsByPos[i]].Call.Pos() }
	lo := sort.Search(len(x.opsByPos), func(i int) bool { return pos(i) >= from })
	hi := sort.Search(len(x.opsByPos), func(i int) bool { return pos(i) > to })
	idx = append(idx, x.opsByPos[lo:max(lo, hi)]...)
	for _, k := range keyid.ShapeKeys(l.pass.TypesInfo, a.Key()) {
		idx = append(idx, x.opsByShape[k]...)
	}
	after := a.Call.End()
	calls := l.sameCalls()
	c := sort.Search(len(calls), func(i int) bool { return calls[i].pos > after })
	var seen map[*types.Func]bool
	for ; c < len(calls) && calls[c].pos <= to; c++ {
		fn := calls[c].fn
		if seen[fn] {
			continue
		}
		if seen == nil {
			seen = map[*types.Func]bool{}
		}
		seen[fn] = true
		idx = append(idx, x.opsInDecl[fn]...)
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	out := make([]*redisops.Op, len(idx))
	for i, j := range idx {
		out[i] = x.ops[j]
	}
	return out
}
