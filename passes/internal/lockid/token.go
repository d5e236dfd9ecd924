package lockid

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// tokenGetSet is a GETSET that writes a lock's token (tokenHeld).
type tokenGetSet struct {
	g *redisops.Op // the GETSET
	a *redisops.Op // the acquire whose value it writes
}

// tokenHeld finds the evidence that key, used by op, holds a lock's
// token: a GETSET of the same key (in op's function) or of a key of the
// same shape (in another) writes the value an acquire of the package
// writes with a TTL (the same variable in one function, the same field or
// package-level variable in two; never a constant) and compares the value
// it replaced with it. That is a holder writing its own token again and
// checking that it still held the lock: a renewal by GETSET. A counter
// reset by GETSET writes a number and compares nothing with it; a cache
// swap writes no acquire's token.
func (l *Locks) tokenHeld(op *redisops.Op, key ast.Expr) *Lock {
	if op.Func == nil {
		return nil
	}
	gs := l.tokenGetSets()
	if len(gs) == 0 {
		return nil
	}
	form := op.FormOf(key)
	if !form.Known() {
		return nil
	}
	for _, t := range gs {
		gk := t.g.KeyForm()
		if t.g == op || t.g.Func.Scope() == op.Func.Scope() && keyid.Same(gk, form) ||
			!gk.Literal() && !form.Literal() && keyid.SameShape(gk, form) {
			return &Lock{Acquire: t.a, Evidence: Token, Call: t.g.Call}
		}
	}
	return nil
}

// tokenGetSets lists the package's GETSETs that write a lock's token and
// compare the value they replaced with it, once.
func (l *Locks) tokenGetSets() []tokenGetSet {
	l.tokenOnce.Do(func() {
		info := l.pass.TypesInfo
		for _, g := range l.res.Ops {
			if g.Kind != redisops.GetSet || g.Func == nil || g.Value == nil || len(g.Keys) != 1 || g.KeysSpread {
				continue
			}
			vf := g.FormOf(g.Value)
			if !vf.Known() || vf.Constant() || !comparesReply(info, g, vf) {
				continue
			}
			for _, a := range l.acquires {
				if a.Func == nil || a.Value == nil || a.NoTTL || a.TTL == nil {
					continue
				}
				af := a.FormOf(a.Value)
				same := keyid.SameShape(af, vf)
				if a.Func.Scope() == g.Func.Scope() {
					same = keyid.Same(af, vf)
				}
				if same {
					l.tokens = append(l.tokens, tokenGetSet{g: g, a: a})
					break
				}
			}
		}
	})
	return l.tokens
}

// comparesReply reports whether g's function compares the value g
// replied (the key's old value) with an expression of the form vf.
func comparesReply(info *types.Info, g *redisops.Op, vf keyid.Form) bool {
	inline, v := g.Reply(info)
	if inline == nil && v == nil {
		return false
	}
	isReply := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if inline != nil {
			return e == inline
		}
		id, ok := e.(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	sc := g.Func.Scope()
	found := false
	ast.Inspect(g.Func.Body, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if found || !ok || b.Op != token.EQL && b.Op != token.NEQ {
			return !found
		}
		for _, pair := range [2][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if isReply(pair[0]) && keyid.Same(sc.Of(pair[1]), vf) {
				found = true
			}
		}
		return !found
	})
	return found
}
