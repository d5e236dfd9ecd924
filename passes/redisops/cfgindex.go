package redisops

import (
	"go/token"
	"math"
	"slices"
	"sync"

	"golang.org/x/tools/go/cfg"

	"github.com/lockvet/lockvet/passes/internal/keyid"
)

// A function's CFG is asked the same questions once per operation (where
// is this call, can that one run after it). Answered by scanning the graph,
// that is the function's length per question, quadratic in a function
// full of lock code. The index below, built once per function, answers
// "where" by binary search and bounds "can it reach" to the blocks that
// can still get there.

type cfgIndex struct {
	// nodes are the live blocks' nodes sorted by position; nil when two of
	// them overlap (then locate scans, as the index could pick a
	// different one).
	nodes []located
	// first[i] is the position of block i's first node (MaxInt when it
	// has none); minReach[i] is the least first[j] over the blocks j
	// reachable from block i, itself included.
	first, minReach []token.Pos
}

type located struct {
	pos, end token.Pos
	b        *cfg.Block
	i        int
}

type cfgIdx struct {
	once sync.Once
	x    *cfgIndex
}

func (f *Func) index() *cfgIndex {
	f.idx.once.Do(func() { f.idx.x = newCFGIndex(f.CFG()) })
	return f.idx.x
}

func newCFGIndex(g *cfg.CFG) *cfgIndex {
	x := &cfgIndex{first: make([]token.Pos, len(g.Blocks)), minReach: make([]token.Pos, len(g.Blocks))}
	for _, b := range g.Blocks {
		x.first[b.Index] = math.MaxInt
		for i, n := range b.Nodes {
			x.first[b.Index] = min(x.first[b.Index], n.Pos())
			if b.Live {
				x.nodes = append(x.nodes, located{n.Pos(), n.End(), b, i})
			}
		}
	}
	slices.SortFunc(x.nodes, func(a, b located) int { return int(a.pos) - int(b.pos) })
	for i := 1; i < len(x.nodes); i++ {
		if x.nodes[i].pos < x.nodes[i-1].end {
			x.nodes = nil
			break
		}
	}
	x.reach(g)
	return x
}

// reach fills minReach: Tarjan's strongly connected components come out
// successors first, so each component's successors are final when it is.
func (x *cfgIndex) reach(g *cfg.CFG) {
	n := len(g.Blocks)
	index := make([]int, n) // 0: not visited; else visit order + 1
	low := make([]int, n)
	onStack := make([]bool, n)
	var stack []int32
	counter := 0
	var visit func(v int32)
	visit = func(v int32) {
		counter++
		index[v], low[v] = counter, counter
		stack = append(stack, v)
		onStack[v] = true
		for _, s := range g.Blocks[v].Succs {
			w := s.Index
			if index[w] == 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		// v roots a component: pop it, then give every member the least
		// position the component or its successors reach.
		i := len(stack) - 1
		for stack[i] != v {
			i--
		}
		comp := stack[i:]
		m := token.Pos(math.MaxInt)
		for _, c := range comp {
			m = min(m, x.first[c])
			for _, s := range g.Blocks[c].Succs {
				if !onStack[s.Index] {
					m = min(m, x.minReach[s.Index])
				}
			}
		}
		for _, c := range comp {
			x.minReach[c] = m
			onStack[c] = false
		}
		stack = stack[:i]
	}
	for _, b := range g.Blocks {
		if index[b.Index] == 0 {
			visit(b.Index)
		}
	}
}

// Locate finds the live block of f's CFG, and the index in it, of the node
// that contains pos (a position in f's body outside nested function
// literals); nil when there is none.
func (f *Func) Locate(pos token.Pos) (*cfg.Block, int) {
	x := f.index()
	if x.nodes == nil {
		return locate(f.CFG(), pos)
	}
	i, found := slices.BinarySearchFunc(x.nodes, pos, func(l located, p token.Pos) int { return int(l.pos) - int(p) })
	if !found {
		i--
	}
	if i < 0 || pos >= x.nodes[i].end {
		return nil, 0
	}
	return x.nodes[i].b, x.nodes[i].i
}

// MayReach reports whether control can flow from the start of block b to
// a node written at or before pos. When it cannot, nothing at or before
// pos is ahead of b: a flow that only looks for such nodes can stop there.
func (f *Func) MayReach(b *cfg.Block, pos token.Pos) bool {
	return f.index().minReach[b.Index] <= pos
}

// locate is Locate by scanning the graph.
func locate(g *cfg.CFG, pos token.Pos) (*cfg.Block, int) {
	for _, b := range g.Blocks {
		if !b.Live {
			continue
		}
		for i, n := range b.Nodes {
			if n.Pos() <= pos && pos < n.End() {
				return b, i
			}
		}
	}
	return nil, 0
}

type keyIdx struct {
	once  sync.Once
	byKey map[keyid.Anchor][]int // indices into Ops, ascending
}

// OpsOn returns, in the order of f.Ops, the operations of f with a key
// that may be one of keys (forms read in f: Op.KeyForm, Op.FormOf): a
// superset of those for which keyid.Same holds between one of their
// keys and one of keys. Checks that pair an operation
// with others on its key ask this instead of scanning f.Ops, so pairing
// costs the operations on that key, not all the function's.
func (f *Func) OpsOn(keys ...keyid.Form) []*Op {
	f.keys.once.Do(func() {
		f.keys.byKey = map[keyid.Anchor][]int{}
		for i, op := range f.Ops {
			for _, k := range op.forms {
				for _, s := range keyid.Anchors(k) {
					if l := f.keys.byKey[s]; len(l) == 0 || l[len(l)-1] != i {
						f.keys.byKey[s] = append(l, i)
					}
				}
			}
		}
	})
	var idx []int
	for _, k := range keys {
		for _, s := range keyid.Anchors(k) {
			idx = append(idx, f.keys.byKey[s]...)
		}
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	out := make([]*Op, len(idx))
	for i, j := range idx {
		out[i] = f.Ops[j]
	}
	return out
}
