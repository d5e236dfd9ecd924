package lockid

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// The questions Of and Releases answer compare one operation with every
// acquire, or one acquire with every operation, of the package. Asked for
// every operation, that is quadratic in the package's lock code (and
// cubic for a check that asks per acquire and use). The index below
// narrows each question to the candidates that can possibly match, by
// position (an acquire in an enclosing function lies in the same
// top-level declaration), by key shape (keyid.AnchorKeys), and by call
// (the helpers a function calls); the full test then runs on those only,
// in the original order, so the answers are the same.

type index struct {
	acqIndex   map[*redisops.Op]int   // acquire → index in acquires
	acqByShape map[keyid.Anchor][]int // acquire indices by key shape, ascending
	ops        []*redisops.Op         // res.Ops
	opsByShape map[keyid.Anchor][]int // op indices by the shape of any key, ascending
	opsInDecl  map[*types.Func][]int  // op indices by the declared function holding them
	files      []*ast.File            // sorted by position
}

type sameCall struct {
	pos token.Pos
	fn  *types.Func
}

func (l *Locks) index() *index {
	l.idxOnce.Do(l.buildIndex)
	return l.idx
}

func (l *Locks) buildIndex() {
	info := l.pass.TypesInfo
	x := &index{
		acqIndex:   map[*redisops.Op]int{},
		acqByShape: map[keyid.Anchor][]int{},
		ops:        l.res.Ops,
		opsByShape: map[keyid.Anchor][]int{},
		opsInDecl:  map[*types.Func][]int{},
	}
	for i, a := range l.acquires {
		x.acqIndex[a] = i
		for _, k := range dedupe(l.shapeKeys(a, a.Key())) {
			x.acqByShape[k] = append(x.acqByShape[k], i)
		}
	}
	for i, op := range x.ops {
		var shapes []keyid.Anchor
		for _, k := range op.KeyArgs() {
			shapes = append(shapes, l.shapeKeys(op, k)...)
			if op.KeysSpread {
				continue // the slice's own anchors (collect.go)
			}
			if s, ok := keyid.SliceOf(op.FormOf(k)); ok {
				shapes = append(shapes, keyid.Anchors(s)...) // an element of a ranged slice (collect.go)
			}
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
	x.files = slices.Clone(l.pass.Files)
	slices.SortFunc(x.files, func(a, b *ast.File) int { return cmp.Compare(a.FileStart, b.FileStart) })
	l.idx = x
}

// shapeKeys are the anchors (keyid.Anchors) of key, used by op: the
// buckets of the keys it may be the same as, or of the same shape.
func (l *Locks) shapeKeys(op *redisops.Op, key ast.Expr) []keyid.Anchor {
	return keyid.Anchors(op.FormOf(key))
}

// shaped is key, used by op, with a local variable of op's function
// declaration that is written once replaced by its definition
// (keyid.Resolve): the expression whose words count across functions.
func (l *Locks) shaped(op *redisops.Op, key ast.Expr) ast.Expr {
	if op == nil || op.Func == nil {
		return key
	}
	for c := range op.Cursor.Enclosing((*ast.FuncDecl)(nil)) {
		return keyid.Resolve(l.pass.TypesInfo, c.Node().(*ast.FuncDecl).Body, key)
	}
	return key
}

func dedupe(s []keyid.Anchor) []keyid.Anchor {
	var out []keyid.Anchor
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

// acquiresOn lists, in acquire order, the acquires whose call starts in
// [from, to) and whose key may be the form key (keyid.Same or
// SameShape): those sharing an anchor with it.
func (l *Locks) acquiresOn(key keyid.Form, from, to token.Pos) []int {
	var out []int
	for _, i := range l.acquiresAnchored(keyid.Anchors(key)) {
		if p := l.acquires[i].Call.Pos(); from <= p && p < to {
			out = append(out, i)
		}
	}
	return out
}

// acquiresShaped lists, in acquire order, the acquires whose key may be
// key, used by op, or have its shape.
func (l *Locks) acquiresShaped(op *redisops.Op, key ast.Expr) []int {
	return l.acquiresAnchored(l.shapeKeys(op, key))
}

// acquiresAnchored lists, in acquire order, the acquires whose key has
// one of anchors.
func (l *Locks) acquiresAnchored(anchors []keyid.Anchor) []int {
	x := l.index()
	var out []int
	for _, k := range anchors {
		out = append(out, x.acqByShape[k]...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Candidates lists, in res.Ops order, the operations that Match can
// connect to a's key: those with a key of the same shape (in a's function
// or elsewhere), those in same-package functions that a's function calls
// after a, and those in the release and renew counterparts of a's
// function. It is a superset: Match decides.
func (l *Locks) Candidates(a *redisops.Op) []*redisops.Op {
	if a.Func == nil || a.Key() == nil {
		return nil // Match finds nothing
	}
	x := l.index()
	var idx []int
	// In a's function (and literals inside it) Match asks keyid.Same,
	// elsewhere keyid.SameShape: either way the keys share an anchor.
	to := a.Func.Node.End()
	for _, k := range l.shapeKeys(a, a.Key()) {
		idx = append(idx, x.opsByShape[k]...)
	}
	for _, s := range l.collected(a) {
		for _, k := range keyid.Anchors(s) {
			idx = append(idx, x.opsByShape[k]...)
		}
	}
	idx = append(idx, l.counterpartOps(a)...)
	idx = append(idx, l.storedOps(a)...)
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
