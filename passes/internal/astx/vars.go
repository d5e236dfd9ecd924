package astx

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// Vars answers AssignedBetween, AssignedIn and SoleDef for many variables
// of one body after a single walk of it, for callers that ask about every
// operation of a long function.
type Vars struct {
	body ast.Node
	vars map[*types.Var]*varUse
}

type varUse struct {
	writes []token.Pos // as AssignedBetween counts them, in source order
	defs   int         // as SoleDef counts them
	def    ast.Expr    // the defining expression, when defs == 1
	uses   int         // reads, as SoleDef counts them
	ranged *ast.RangeStmt
	keyOf  *ast.RangeStmt // the range statement v is the key variable of
}

// IndexVars walks body once.
func IndexVars(info *types.Info, body ast.Node) *Vars {
	x := &Vars{body: body, vars: map[*types.Var]*varUse{}}
	at := func(e ast.Expr) *varUse {
		id := IdentOf(e)
		if id == nil {
			return nil
		}
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok {
			return nil
		}
		return x.use(v)
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok {
				x.use(v).uses++
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				u := at(l)
				if u == nil {
					continue
				}
				u.writes = append(u.writes, n.Pos())
				u.defs++
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					u.def = n.Rhs[i]
				} else if n.Tok != token.DEFINE {
					u.uses-- // counted as a use above
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if v, ok := info.Defs[name].(*types.Var); ok {
					u := x.use(v)
					u.defs++
					if len(n.Names) == len(n.Values) {
						u.def = n.Values[i]
					}
				}
			}
		case *ast.IncDecStmt:
			if u := at(n.X); u != nil {
				u.writes = append(u.writes, n.X.Pos())
				u.defs++
			}
		case *ast.UnaryExpr:
			if u := at(n.X); n.Op == token.AND && u != nil {
				u.writes = append(u.writes, n.X.Pos())
				u.defs++
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if u := at(e); e != nil && u != nil {
					u.writes = append(u.writes, e.Pos())
					u.defs++
				}
			}
			if u := at(n.Value); n.Value != nil && u != nil && n.Tok == token.DEFINE {
				u.ranged = n
			}
			if u := at(n.Key); n.Key != nil && u != nil && n.Tok == token.DEFINE {
				u.keyOf = n
			}
		}
		return true
	})
	for _, u := range x.vars {
		sort.Slice(u.writes, func(i, j int) bool { return u.writes[i] < u.writes[j] })
	}
	return x
}

func (x *Vars) use(v *types.Var) *varUse {
	u := x.vars[v]
	if u == nil {
		u = &varUse{}
		x.vars[v] = u
	}
	return u
}

// AssignedBetween is AssignedBetween for the indexed body.
func (x *Vars) AssignedBetween(v *types.Var, from, to token.Pos) bool {
	if from > to {
		from, to = to, from
	}
	u := x.vars[v]
	if u == nil {
		return false
	}
	i := sort.Search(len(u.writes), func(i int) bool { return u.writes[i] > from })
	return i < len(u.writes) && u.writes[i] < to
}

// AssignedIn is AssignedIn for the indexed body.
func (x *Vars) AssignedIn(v *types.Var) bool {
	u := x.vars[v]
	return u != nil && len(u.writes) > 0
}

// FirstWrite is the position of v's first write in the indexed body, as
// AssignedBetween counts writes, or token.NoPos.
func (x *Vars) FirstWrite(v *types.Var) token.Pos {
	if u := x.vars[v]; u != nil && len(u.writes) > 0 {
		return u.writes[0]
	}
	return token.NoPos
}

// SoleDef is SoleDef for the indexed body.
func (x *Vars) SoleDef(v *types.Var) (ast.Expr, int) {
	u := x.vars[v]
	if u == nil || v.Pos() < x.body.Pos() || v.Pos() >= x.body.End() || u.defs != 1 {
		return nil, 0
	}
	return u.def, u.uses
}

// RangedBy is the for-range statement of the indexed body that defines v
// as its value variable (for _, v := range x), or nil.
func (x *Vars) RangedBy(v *types.Var) *ast.RangeStmt {
	if u := x.vars[v]; u != nil {
		return u.ranged
	}
	return nil
}

// RangedKeyBy is the for-range statement of the indexed body that defines
// v as its key variable (for v := range x, for v, _ := range x), or nil.
func (x *Vars) RangedKeyBy(v *types.Var) *ast.RangeStmt {
	if u := x.vars[v]; u != nil {
		return u.keyOf
	}
	return nil
}

// Writes is how many times v is written in the indexed body, as
// AssignedBetween counts writes.
func (x *Vars) Writes(v *types.Var) int {
	if u := x.vars[v]; u != nil {
		return len(u.writes)
	}
	return 0
}
