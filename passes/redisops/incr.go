package redisops

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockname"
)

// INCR as a lock, for every client: some code takes a lock with INCR key
// and enters when the reply is 1, the first INCR of an absent key. INCR
// sets no TTL, so such a lock is an acquire with no TTL (NoTTL), and an
// EXPIRE after it is the two-step acquire LV101 is about.
//
// Most INCRs are counters, and a rate limiter also compares its counter
// with 1 (to give a new window its TTL: if n == 1 { EXPIRE }). An INCR is
// taken for a lock only when all of these hold, so that counters stay
// silent:
//
//   - its reply is read at the call, in the client's way (incrReader: for
//     go-redis .Val() in place or into a variable, or .Result() into a
//     variable; for redigo redis.Int or Int64 around the Do into a
//     variable; for rueidis .AsInt64() or .ToInt64() of the Do into a
//     variable), and every use of the reply decides a guard: the whole
//     condition of an if, or a switch case, comparing it with a constant
//     so that the first INCR (reply 1) and every later one (2, 3, …) go
//     different ways (== 1, != 1, > 1, >= 2, < 2, 1 < n, …), or the tag
//     of a switch. A counter compared with another limit, returned or
//     passed on is not a lock;
//   - the guard lets the first INCR into a critical section: the branch
//     or case it takes, and what follows the guard in its block when
//     every other branch leaves (ends in return, break, continue, goto or
//     a call that does not return; a switch needs a default);
//   - that critical section deletes the key (DEL or UNLINK of the same key
//     by the same client, deferred or not): the lock is released. An INCR
//     guard that only its TTL ever clears is not recognized.
//
// A guard's condition may also test the error of a (reply, error) pair
// with it: `if err != nil || n != 1 { return … }` leaves unless this
// call took the lock, `if err == nil && n == 1 { … }` enters only then.
//
// The other sense: a function that answers whether the key is locked
// (IsLocked: true when busy) or taken (TryLock: true when acquired)
// returns the comparison itself (return n > 1, return n == 1), and its
// caller runs the critical section. Such an INCR is a verdict
// (incrVerdict); it is a lock only with the package's evidence
// (incrVerdicts, after the call walk): the function or its receiver's
// type is named like a lock (lockname.LockLike), and a function of the
// same receiver type (or a package-level one, for a package-level
// function) named to release (lockname: Unlock, Release, …) deletes a
// key built the same way from its parameter (keyid.Template). A rate
// limiter's `return n <= 1` has neither.

// incrGuard is where an INCR's reply decides who holds the lock: an if
// statement whose whole condition compares the reply with a constant, or
// a switch on the reply (switch n { case 1: … }) or on such comparisons
// (switch { case n == 1: … }).
type incrGuard struct {
	cur inspector.Cursor // at the *ast.IfStmt or *ast.SwitchStmt
	// holder is, for an if, whether its condition holds exactly for the
	// first INCR (n == 1, n <= 1, n < 2) rather than for the later ones
	// (n != 1, n > 1, n >= 2).
	holder bool
}

// firstIncr says, for a comparison `reply op c` (the reply on the left),
// whether it holds for the first INCR of a key (reply 1) and whether it
// holds for every later one (reply 2, 3, …): a guard is a comparison that
// splits the two, one way or the other.
func firstIncr(op token.Token, c constant.Value) (holder, ok bool) {
	atOne := constant.Compare(constant.MakeInt64(1), op, c)
	// Later replies: 2 and every larger value answer alike when the
	// comparison's constant is at most 2 (n > 1, n >= 2, n != 1, …).
	if constant.Compare(c, token.GTR, constant.MakeInt64(2)) {
		return false, false
	}
	atTwo := constant.Compare(constant.MakeInt64(2), op, c)
	atMany := constant.Compare(constant.MakeInt64(3), op, c)
	if atTwo != atMany || atOne == atTwo {
		return false, false
	}
	return atOne, true
}

// mirror is the comparison with its operands swapped (1 < n is n > 1).
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// compareReply reads b as a comparison of the reply e with an integer
// constant: whether it holds for the first INCR only.
func compareReply(info *types.Info, b *ast.BinaryExpr, e ast.Expr) (holder, ok bool) {
	op, other := b.Op, b.Y
	if ast.Unparen(b.Y) == e {
		op, other = mirror(op), b.X
	} else if ast.Unparen(b.X) != e {
		return false, false
	}
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ:
	default:
		return false, false
	}
	tv, ok := info.Types[other]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return false, false
	}
	return firstIncr(op, tv.Value)
}

// incrReader is how one client's INCR reply is read and its keys
// deleted: what incrLock needs to know of the client.
type incrReader struct {
	// reply finds, for the INCR call at cur, the expression whose value is
	// the reply (at) and whether that expression yields a (reply, error)
	// pair; ok is false when the reply is not read in a way it knows.
	reply func(info *types.Info, cur inspector.Cursor) (at inspector.Cursor, pair, ok bool)
	// deletes returns the keys call deletes (DEL or UNLINK), or nil.
	deletes func(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr) []ast.Expr
}

// incrUse is what incrOf finds an INCR to be.
type incrUse uint8

const (
	// incrCounter: not a lock by its own evidence.
	incrCounter incrUse = iota
	// incrLocked: a guard lets the first INCR into a critical section
	// that deletes the key.
	incrLocked
	// incrVerdict: the reply's comparison is returned as the function's
	// answer, and a lock only with the package's evidence (incrVerdicts).
	incrVerdict
)

// incrOf says whether the INCR at cur, of key, takes a lock (incrLocked),
// answers for one (incrVerdict) or counts, its reply read and its release
// found by rd.
func incrOf(info *types.Info, cur inspector.Cursor, key ast.Expr, rd incrReader) incrUse {
	at, pair, ok := rd.reply(info, cur)
	if !ok {
		return incrCounter
	}
	var fcur inspector.Cursor
	var body *ast.BlockStmt
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch n := c.Node().(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		}
		fcur = c
		break
	}
	if body == nil {
		return incrCounter
	}

	var guards []incrGuard
	var reply types.Object
	verdict := false
	if pair {
		first := pairFirst(info, at.Parent().Node())
		if first == nil {
			return incrCounter
		}
		reply = first
		if guards, verdict, ok = replyGuards(info, fcur, first); !ok {
			return incrCounter
		}
	} else if obj := assignedTo(info, at); obj != nil {
		reply = obj
		if guards, verdict, ok = replyGuards(info, fcur, obj); !ok {
			return incrCounter
		}
	} else {
		g, ok := guardOf(info, at)
		if !ok {
			return incrCounter
		}
		guards = []incrGuard{g}
	}

	for _, g := range guards {
		for _, n := range criticalSection(info, g, reply) {
			if deletesKey(info, body, n, key, rd) {
				return incrLocked
			}
		}
	}
	if verdict {
		return incrVerdict
	}
	return incrCounter
}

// replyGuards returns the ifs that compare the reply variable obj with 1,
// and whether a return statement of the function at fcur answers with
// such a comparison (verdictOf); ok is false when obj has any other use
// in that function.
func replyGuards(info *types.Info, fcur inspector.Cursor, obj types.Object) (guards []incrGuard, verdict, ok bool) {
	if obj == nil {
		return nil, false, false
	}
	for c := range fcur.Preorder((*ast.Ident)(nil)) {
		if info.Uses[c.Node().(*ast.Ident)] != obj {
			continue
		}
		if verdictOf(info, fcur, c) {
			verdict = true
			continue
		}
		g, ok := guardOf(info, c)
		if !ok {
			return nil, false, false
		}
		if !seenGuard(guards, g) {
			guards = append(guards, g)
		}
	}
	return guards, verdict, len(guards) > 0 || verdict
}

// verdictOf reports whether the reply at c is compared, so that the first
// INCR and the later ones answer differently, in a bool result of a
// return statement of the function at fcur (return n > 1; return n ==
// 1, nil): the function answers whether the key was locked or taken.
func verdictOf(info *types.Info, fcur inspector.Cursor, c inspector.Cursor) bool {
	e := c.Node().(ast.Expr)
	_, p := outOfParens(c)
	b, ok := p.Node().(*ast.BinaryExpr)
	if !ok {
		return false
	}
	holder, ok := compareReply(info, b, e)
	if !ok {
		return false
	}
	cond, q := outOfParens(p)
	if j, ok := q.Node().(*ast.BinaryExpr); ok && withErrTest(info, j, cond, holder) {
		// return err != nil || n > 1; return err == nil && n == 1.
		_, q = outOfParens(q)
	}
	if _, ok := q.Node().(*ast.ReturnStmt); !ok {
		return false
	}
	for f := range q.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return f == fcur
	}
	return false
}

// seenGuard reports whether gs holds g's statement already (a switch
// whose cases compare the reply more than once).
func seenGuard(gs []incrGuard, g incrGuard) bool {
	for _, x := range gs {
		if x.cur == g.cur {
			return true
		}
	}
	return false
}

// guardOf reports whether the reply at c decides a guard: an operand of a
// comparison with a constant that is the whole condition of an if, or of
// a switch case, or the tag of a switch.
func guardOf(info *types.Info, c inspector.Cursor) (incrGuard, bool) {
	e := c.Node().(ast.Expr)
	_, p := outOfParens(c)
	if sw, ok := p.Node().(*ast.SwitchStmt); ok && sw.Init == nil && sw.Tag != nil && ast.Unparen(sw.Tag) == e {
		return incrGuard{cur: p}, true
	}
	b, ok := p.Node().(*ast.BinaryExpr)
	if !ok {
		return incrGuard{}, false
	}
	holder, ok := compareReply(info, b, e)
	if !ok {
		return incrGuard{}, false
	}
	cond, q := outOfParens(p)
	if or, ok := q.Node().(*ast.BinaryExpr); ok && withErrTest(info, or, cond, holder) {
		// err != nil || n != 1; err == nil && n == 1.
		cond, q = outOfParens(q)
		if n, ok := q.Node().(*ast.IfStmt); ok && n.Cond == cond {
			return incrGuard{cur: q, holder: holder}, true
		}
		return incrGuard{}, false
	}
	switch n := q.Node().(type) {
	case *ast.IfStmt:
		if n.Cond == cond {
			return incrGuard{cur: q, holder: holder}, true
		}
	case *ast.CaseClause:
		// A tagless switch whose cases compare the reply.
		if sw, ok := q.Parent().Parent().Node().(*ast.SwitchStmt); ok && sw.Tag == nil && sw.Init == nil && len(n.List) == 1 {
			return incrGuard{cur: q.Parent().Parent()}, true
		}
	}
	return incrGuard{}, false
}

// outOfParens is the expression at c with the parentheses around it, and
// the cursor of what holds that.
func outOfParens(c inspector.Cursor) (ast.Expr, inspector.Cursor) {
	e, _ := c.Node().(ast.Expr)
	p := c.Parent()
	for {
		if _, ok := p.Node().(*ast.ParenExpr); !ok {
			return e, p
		}
		e, p = p.Node().(ast.Expr), p.Parent()
	}
}

// withErrTest reports whether b joins cmp, a comparison of the reply, with
// a test of an error so that the whole holds as cmp does for this call:
// `err != nil || cmp` where cmp holds for the later INCRs (the holder
// goes past the if), `err == nil && cmp` where it holds for the first.
func withErrTest(info *types.Info, b *ast.BinaryExpr, cmp ast.Expr, holder bool) bool {
	var other ast.Expr
	switch cmp {
	case b.X:
		other = b.Y
	case b.Y:
		other = b.X
	default:
		return false
	}
	want := token.NEQ
	switch {
	case b.Op == token.LOR && !holder:
	case b.Op == token.LAND && holder:
		want = token.EQL
	default:
		return false
	}
	t, ok := ast.Unparen(other).(*ast.BinaryExpr)
	if !ok || t.Op != want {
		return false
	}
	errType := types.Universe.Lookup("error").Type()
	for _, side := range [][2]ast.Expr{{t.X, t.Y}, {t.Y, t.X}} {
		if info.Types[side[1]].IsNil() && types.Identical(info.TypeOf(side[0]), errType) {
			return true
		}
	}
	return false
}

// criticalSection returns the statements a guard lets only the holder
// run: the branch the first INCR takes, and what follows the guard in
// its block when every other branch leaves.
func criticalSection(info *types.Info, g incrGuard, reply types.Object) []ast.Node {
	var mine []ast.Node
	othersLeave := true
	switch n := g.cur.Node().(type) {
	case *ast.IfStmt:
		var other ast.Stmt = n.Else
		if g.holder {
			mine = append(mine, n.Body)
		} else {
			other = n.Body
			if n.Else != nil {
				mine = append(mine, n.Else)
			}
		}
		othersLeave = other != nil && blockLeaves(info, other)
	case *ast.SwitchStmt:
		sawMine := false
		for _, s := range n.Body.List {
			cc := s.(*ast.CaseClause)
			if caseTakesFirst(info, n, cc, reply) {
				sawMine = true
				for _, st := range cc.Body {
					mine = append(mine, st)
				}
				continue
			}
			if len(cc.Body) == 0 || !leaves(info, cc.Body[len(cc.Body)-1]) {
				othersLeave = false
			}
		}
		if !sawMine || !hasDefault(n) {
			othersLeave = false
		}
	}
	if othersLeave {
		mine = append(mine, after(g.cur)...)
	}
	return mine
}

// blockLeaves reports whether the branch s (a block, or an else-if chain
// taken as a whole) ends by leaving the enclosing block.
func blockLeaves(info *types.Info, s ast.Stmt) bool {
	b, ok := s.(*ast.BlockStmt)
	return ok && len(b.List) > 0 && leaves(info, b.List[len(b.List)-1])
}

// hasDefault reports whether a switch has a default clause, so that its
// cases cover every reply.
func hasDefault(sw *ast.SwitchStmt) bool {
	for _, s := range sw.Body.List {
		if s.(*ast.CaseClause).List == nil {
			return true
		}
	}
	return false
}

// caseTakesFirst reports whether the clause cc of sw is the one the first
// INCR (reply 1) takes: case 1 of a switch on the reply, or a case that
// compares the reply so that only 1 passes.
func caseTakesFirst(info *types.Info, sw *ast.SwitchStmt, cc *ast.CaseClause, reply types.Object) bool {
	for _, x := range cc.List {
		if sw.Tag != nil {
			if tv, ok := info.Types[x]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Compare(tv.Value, token.EQL, constant.MakeInt64(1)) {
				return true
			}
			continue
		}
		b, ok := ast.Unparen(x).(*ast.BinaryExpr)
		if !ok {
			continue
		}
		for _, side := range []ast.Expr{b.X, b.Y} {
			if id, ok := ast.Unparen(side).(*ast.Ident); ok && reply != nil && info.Uses[id] == reply {
				if holder, ok := compareReply(info, b, ast.Unparen(side)); ok && holder {
					return true
				}
			}
		}
	}
	return false
}

// after returns the statements that follow the statement at cur in its
// block or clause.
func after(cur inspector.Cursor) []ast.Node {
	list := astx.StmtList(cur.Parent().Node())
	for i, s := range list {
		if s == cur.Node() {
			var out []ast.Node
			for _, rest := range list[i+1:] {
				out = append(out, rest)
			}
			return out
		}
	}
	return nil
}

// leaves reports whether s ends the block: a return, a branch, or a call
// that does not return.
func leaves(info *types.Info, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		return ok && !mayReturn(info, call)
	}
	return false
}

// deletesKey reports whether n holds a DEL or UNLINK of key, as rd
// finds them.
func deletesKey(info *types.Info, body *ast.BlockStmt, n ast.Node, key ast.Expr, rd incrReader) bool {
	found := false
	sc := keyid.BodyScope(info, body)
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		for _, a := range rd.deletes(info, body, call) {
			if sc.Same(key, a) {
				found = true
			}
		}
		return !found
	})
	return found
}

// incrVerdicts makes an acquire with no TTL of each INCR that answers for
// a lock (incrVerdict) when the package pairs it with a release: its
// function or its receiver's type is named like a lock, and a release
// of the same receiver type (or a package-level one for a package-level
// function: lockname's Releases, Unlock, Release, …) deletes a key built
// the same way from the same parameter (keyid.Template). It runs after
// the call walk, when every DEL is an op.
func (b *builder) incrVerdicts() {
	var cands []*Op
	for _, op := range b.res.Ops {
		if op.incrVerdict && op.Kind == Counter {
			cands = append(cands, op)
		}
	}
	if len(cands) == 0 {
		return
	}
	info := b.pass.TypesInfo
	declOf := func(f *Func) *types.Func {
		if f == nil {
			return nil
		}
		d, ok := f.Node.(*ast.FuncDecl)
		if !ok {
			return nil
		}
		fn, _ := info.Defs[d.Name].(*types.Func)
		return fn
	}
	for _, op := range cands {
		fn := declOf(op.Func)
		if fn == nil || len(op.Keys) != 1 {
			continue
		}
		recv := RecvType(fn)
		if !lockname.LockLike(fn.Name(), true) && (recv == nil || !lockname.LockLike(recv.Name(), true)) {
			continue
		}
		t, ok := op.Func.Scope().Template(op.KeyForm())
		if !ok {
			continue
		}
		for _, d := range b.res.Ops {
			if d.Kind != Delete || len(d.Keys) != 1 || d.KeysSpread {
				continue
			}
			dfn := declOf(d.Func)
			if dfn == nil || dfn == fn || RecvType(dfn) != recv {
				continue
			}
			if role, _ := lockname.Split(dfn.Name()); role != lockname.Releases {
				continue
			}
			dt, ok := d.Func.Scope().Template(d.KeyForm())
			if ok && keyid.SameTemplate(t.Form, dt.Form) && (t.Index == dt.Index || t.Name == dt.Name) {
				op.Kind, op.NoTTL = Acquire, true
				break
			}
		}
	}
}

// counts reports whether the acquire o is an INCR: its reply is a count.
func (o *Op) counts() bool {
	return o.Kind == Acquire && (o.Method == "INCR" || o.Method == "Incr")
}
