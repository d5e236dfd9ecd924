package outlive

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"
	"time"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/redisops"
)

// A TTL and a timeout are compared as linear forms a×s + b of at most one
// symbol s: a variable or a configuration field (the same field read from
// the same expression). Two durations of the same symbol compare for every
// value it can take; a constant and a symbol, or two symbols, do not.

// sym is the variable a duration is derived from; the zero sym is none.
type sym struct {
	obj  types.Object
	recv string // for a field: the expression it is read from
}

// lin is a×sym + b.
type lin struct {
	sym  sym
	a, b *big.Rat
}

func constLin(v *big.Rat) lin { return lin{a: new(big.Rat), b: v} }

func (l lin) scale(k int64) lin {
	r := big.NewRat(k, 1)
	return lin{sym: l.sym, a: new(big.Rat).Mul(l.a, r), b: new(big.Rat).Mul(l.b, r)}
}

func (l lin) mul(r *big.Rat) lin {
	return lin{sym: l.sym, a: new(big.Rat).Mul(l.a, r), b: new(big.Rat).Mul(l.b, r)}
}

func (l lin) isConst() bool { return l.sym.obj == nil || l.a.Sign() == 0 }

// add returns l + sign×m, or false when they have different symbols.
func add(l, m lin, sign int) (lin, bool) {
	s := l.sym
	switch {
	case l.isConst():
		s = m.sym
	case m.isConst():
	case l.sym != m.sym:
		return lin{}, false
	}
	mb, ma := m.b, m.a
	if sign < 0 {
		mb, ma = new(big.Rat).Neg(mb), new(big.Rat).Neg(ma)
	}
	return lin{sym: s, a: new(big.Rat).Add(l.a, ma), b: new(big.Rat).Add(l.b, mb)}, true
}

// geq reports whether d ≥ t (d > t when strict) for every non-negative
// value of their symbol; known is false when that depends on the value.
func geq(d, t lin, strict bool) (ge, known bool) {
	diff, ok := add(d, t, -1)
	if !ok {
		return false, false
	}
	if !diff.isConst() && (d.isConst() || t.isConst()) {
		return false, false // a constant against a variable
	}
	switch {
	case diff.a.Sign() >= 0 && diff.b.Sign() >= 0:
		if strict && diff.a.Sign() == 0 && diff.b.Sign() == 0 {
			return false, true
		}
		return true, true
	case diff.a.Sign() <= 0 && diff.b.Sign() <= 0:
		return false, true
	}
	return false, false
}

// evaluator evaluates duration expressions of one function.
type evaluator struct {
	info  *types.Info
	body  *ast.BlockStmt
	depth int
}

// eval returns e as a linear form in e's own unit (nanoseconds for a
// time.Duration), or false.
func (ev *evaluator) eval(e ast.Expr) (lin, bool) {
	if ev.depth > 8 {
		return lin{}, false
	}
	ev.depth++
	defer func() { ev.depth-- }()
	e = ast.Unparen(e)
	if tv, ok := ev.info.Types[e]; ok && tv.Value != nil {
		r, ok := ratOf(tv.Value)
		return constLin(r), ok
	}
	switch e := e.(type) {
	case *ast.BinaryExpr:
		x, ok1 := ev.eval(e.X)
		y, ok2 := ev.eval(e.Y)
		if !ok1 || !ok2 {
			return lin{}, false
		}
		switch e.Op {
		case token.ADD:
			return add(x, y, 1)
		case token.SUB:
			return add(x, y, -1)
		case token.MUL:
			switch {
			case y.isConst():
				return x.mul(y.b), true
			case x.isConst():
				return y.mul(x.b), true
			}
		case token.QUO:
			if y.isConst() && y.b.Sign() != 0 {
				return x.mul(new(big.Rat).Inv(y.b)), true
			}
		}
		return lin{}, false
	case *ast.UnaryExpr:
		if e.Op != token.SUB && e.Op != token.ADD {
			return lin{}, false
		}
		x, ok := ev.eval(e.X)
		if ok && e.Op == token.SUB {
			x = x.mul(big.NewRat(-1, 1))
		}
		return x, ok
	case *ast.CallExpr:
		// A conversion between numeric types: time.Duration(n).
		if tv, ok := ev.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 && isNumeric(tv.Type) {
			return ev.eval(e.Args[0])
		}
		return lin{}, false
	case *ast.Ident:
		v, ok := ev.info.Uses[e].(*types.Var)
		if !ok || !isNumeric(v.Type()) {
			return lin{}, false
		}
		if v.Pos() >= ev.body.Pos() && v.Pos() < ev.body.End() {
			// A local: what it is defined with, when that is its only
			// assignment.
			def, _ := astx.SoleDef(ev.info, ev.body, v)
			if def == nil {
				return lin{}, false
			}
			return ev.eval(def)
		}
		// A parameter or a package variable: itself, unless this function
		// assigns it.
		if astx.AssignedIn(ev.info, ev.body, v) {
			return lin{}, false
		}
		return lin{sym: sym{obj: v}, a: big.NewRat(1, 1), b: new(big.Rat)}, true
	case *ast.SelectorExpr:
		sel, ok := ev.info.Selections[e]
		if !ok || sel.Kind() != types.FieldVal || !isNumeric(sel.Type()) {
			if v, ok := ev.info.Uses[e.Sel].(*types.Var); ok && !v.IsField() && isNumeric(v.Type()) {
				// A package variable of another package: cfg.LockTTL.
				return lin{sym: sym{obj: v}, a: big.NewRat(1, 1), b: new(big.Rat)}, true
			}
			return lin{}, false
		}
		return lin{sym: sym{obj: sel.Obj(), recv: types.ExprString(e.X)}, a: big.NewRat(1, 1), b: new(big.Rat)}, true
	}
	return lin{}, false
}

func isNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

func ratOf(v constant.Value) (*big.Rat, bool) {
	switch v.Kind() {
	case constant.Int, constant.Float:
		r, ok := new(big.Rat).SetString(v.ExactString())
		return r, ok
	}
	return nil, false
}

// text says what a duration is: its value for a constant, the expression
// it comes from otherwise (in the unit u of a TTL argument).
func (ev *evaluator) text(e ast.Expr, u redisops.Unit, v lin) string {
	if v.isConst() {
		ns := v.b // scaled to nanoseconds
		if ns.IsInt() && ns.Num().IsInt64() {
			return time.Duration(ns.Num().Int64()).String()
		}
		f, _ := ns.Float64()
		return time.Duration(f).String()
	}
	s := types.ExprString(ast.Unparen(e))
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := ev.info.Uses[id].(*types.Var); ok && v.Pos() >= ev.body.Pos() && v.Pos() < ev.body.End() {
			if def, _ := astx.SoleDef(ev.info, ev.body, v); def != nil {
				s = types.ExprString(ast.Unparen(def))
			}
		}
	}
	switch u {
	case redisops.Seconds:
		s += " seconds"
	case redisops.Millis:
		s += " milliseconds"
	}
	return s
}
