// Package guard answers two questions checks ask about the code around an
// operation: which conditions are known to hold when it runs (the enclosing
// if statements, and earlier if statements of an enclosing block whose body
// leaves the block), and whether a delete runs only after the value read by
// a GET of the same key compared equal to something (the check-then-delete
// release, correct only inside WATCH … MULTI/EXEC).
package guard

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Fact is a condition known to be true (True) or false at a node.
type Fact struct {
	Cond ast.Expr
	True bool
	// If is the if statement the fact comes from.
	If *ast.IfStmt
}

// Facts lists the conditions known at the node at cur, innermost first,
// looking no further out than stop (the enclosing function): conditions of
// if statements whose body (true) or else branch (false) holds the node,
// and conditions of earlier if statements, with no else, in an enclosing
// block whose body always leaves the block (false). Conjunctions known true
// and disjunctions known false are split; negations are flipped.
//
// Of the earlier if statements, only those that end after since count:
// callers asking about a value made at since (an acquire's reply) pass its
// position, so the statements before it are not scanned at all and a long
// function costs the code between the two, not all that precedes.
func Facts(info *types.Info, cur inspector.Cursor, stop ast.Node, since token.Pos) []Fact {
	return allFacts(info, cur, stop, since, false)
}

// allFacts is Facts; with chains, also the conditions of the branches that
// leave the block in the if-else chains before the node, known false:
// the value read compared with a token in
//
//	if errors.Is(err, redis.Nil) {
//		// not held yet
//	} else if err != nil {
//		return err
//	} else if v != token {
//		return nil
//	}
//	rdb.Del(ctx, key)
//
// The first branch's condition is false past the chain; a later one's is
// false unless an earlier branch was taken (here: the key was not there,
// so no other holder's value was read either). That is why these facts
// serve the owner compare only, and not Facts' callers.
func allFacts(info *types.Info, cur inspector.Cursor, stop ast.Node, since token.Pos, chains bool) []Fact {
	var out []Fact
	child := cur
	for p := cur.Parent(); p.Node() != nil && child.Node() != stop; child, p = p, p.Parent() {
		switch n := p.Node().(type) {
		case *ast.IfStmt:
			switch child.Node() {
			case n.Body:
				out = split(out, n, n.Cond, true)
			case n.Else:
				out = split(out, n, n.Cond, false)
			}
		case *ast.BlockStmt:
			first := sort.Search(len(n.List), func(i int) bool { return n.List[i].End() > since })
			for _, s := range n.List[first:] {
				if s == child.Node() {
					break
				}
				ifs, ok := s.(*ast.IfStmt)
				switch {
				case !ok:
				case ifs.Else == nil:
					if leaves(info, ifs.Body) {
						out = split(out, ifs, ifs.Cond, false)
					}
				case chains:
					for ; ifs != nil; ifs, _ = ifs.Else.(*ast.IfStmt) {
						if leaves(info, ifs.Body) {
							out = split(out, ifs, ifs.Cond, false)
						}
					}
				}
			}
		case *ast.FuncLit, *ast.FuncDecl:
			return out
		}
	}
	return out
}

// split adds cond (known to be truth) to facts, splitting && when true and
// || when false, and flipping negations.
func split(facts []Fact, ifs *ast.IfStmt, cond ast.Expr, truth bool) []Fact {
	cond = ast.Unparen(cond)
	switch c := cond.(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return split(facts, ifs, c.X, !truth)
		}
	case *ast.BinaryExpr:
		if truth && c.Op == token.LAND || !truth && c.Op == token.LOR {
			return split(split(facts, ifs, c.X, truth), ifs, c.Y, truth)
		}
	}
	return append(facts, Fact{Cond: cond, True: truth, If: ifs})
}

// leaves reports whether a block always leaves the enclosing block: its
// last statement is a return, a branch (break, continue, goto) or a panic.
func leaves(info *types.Info, b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			if b, ok := typeutil.Callee(info, call).(*types.Builtin); ok && b.Name() == "panic" {
				return true
			}
		}
	}
	return false
}

// Is reports whether the fact says that e is true (want) or false (!want),
// for a boolean e: `e`, `!e`, `e == true`, `e != false`, … .
func (f Fact) Is(info *types.Info, e func(ast.Expr) bool, want bool) bool {
	truth := f.True
	x := f.Cond
	if b, ok := x.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
		for _, pair := range [2][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if v := boolConst(info, pair[1]); v != nil {
				x = ast.Unparen(pair[0])
				if (b.Op == token.EQL) != *v {
					truth = !truth
				}
				break
			}
		}
	}
	return e(x) && truth == want
}

func boolConst(info *types.Info, e ast.Expr) *bool {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
		return nil
	}
	v := constant.BoolVal(tv.Value)
	return &v
}

// ErrorSet reports whether the fact says that an error value is non-nil
// (`err != nil` true, `err == nil` false).
func (f Fact) ErrorSet(info *types.Info) bool {
	b, ok := f.Cond.(*ast.BinaryExpr)
	if !ok || (b.Op == token.NEQ) != f.True || b.Op != token.NEQ && b.Op != token.EQL {
		return false
	}
	for _, pair := range [2][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if tv, ok := info.Types[pair[1]]; ok && tv.IsNil() && types.Identical(info.TypeOf(pair[0]), errorType) {
			return true
		}
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type()

// Compare is a delete that runs only after the value a GET read from the
// same key compared equal to Token, in a separate round trip.
type Compare struct {
	Get *redisops.Op
	// Fact is the comparison (Value == Token known true, Value != Token
	// known false, or bytes.Equal(Value, Token) known true); Cmp is its
	// expression, nil for bytes.Equal.
	Fact  Fact
	Cmp   *ast.BinaryExpr
	Value ast.Expr // the GET's value as compared (rdb.Get(…).Val(), or v)
	Token ast.Expr // what it is compared with
	// Inline is set when Value is the GET call's reply read in place.
	Inline bool
	// Prefix is set when the compare tests that Value starts with Token
	// (strings.HasPrefix, directly or in a predicate of the package):
	// the owner is whoever writes values that start so, a process. Token
	// is then valid source at the delete.
	Prefix bool
}

// OwnerCompare finds the GET-compare that guards the delete del, or nil.
// The GET must be in the same function, before del, on the same key.
//
// A delete queued in the callback of a pipeline (tx.Pipelined(ctx,
// func(p) { p.Del(ctx, key) }), inside Watch or not) is guarded by what
// guards the call that opens the pipeline: the GET and the compare are
// looked for there.
func OwnerCompare(info *types.Info, del *redisops.Op) *Compare {
	if del.Func == nil {
		return nil
	}
	if c := ownerCompare(info, del.Func, del.Cursor, del.Call.Pos(), keyForms(del)); c != nil {
		return c
	}
	call, outer, ok := del.Func.Batched()
	if !ok {
		return nil
	}
	for cur := del.Cursor; cur.Node() != nil; cur = cur.Parent() {
		if cur.Node() == call {
			return ownerCompare(info, outer, cur, call.Pos(), keyForms(del))
		}
	}
	return nil
}

// HelperCompare finds the GET-compare that guards call, a call of the
// function that holds the delete del (a helper that deletes the key it
// is passed), in the function that makes the call: the GET must read the
// key the call passes as the parameter del deletes. Nil when there is
// none, or when del's key is not a parameter the helper keeps.
func HelperCompare(info *types.Info, res *redisops.Result, del *redisops.Op, call *ast.CallExpr) *Compare {
	decl, ok := del.Func.Node.(*ast.FuncDecl)
	if !ok || len(del.Keys) != 1 || del.KeysSpread {
		return nil
	}
	if decl.Body == nil {
		return nil
	}
	idx, ok := del.Func.Scope().KeptParam(del.Keys[0])
	if !ok || idx >= len(call.Args) || call.Ellipsis.IsValid() {
		return nil
	}
	// The innermost function with operations that holds the call.
	var f *redisops.Func
	for _, g := range res.Funcs {
		if g.Node.Pos() <= call.Pos() && call.End() <= g.Node.End() && (f == nil || f.Node.Pos() <= g.Node.Pos() && g.Node.End() <= f.Node.End()) {
			f = g
		}
	}
	if f == nil || len(f.Ops) == 0 {
		return nil
	}
	var fcur inspector.Cursor
	for c := range f.Ops[0].Cursor.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		fcur = c
		break
	}
	if fcur.Node() != f.Node {
		return nil
	}
	cur, ok := fcur.FindNode(call)
	if !ok {
		return nil
	}
	// The key the call names: the helper's key with its parameter bound
	// to the argument.
	var recv keyid.Form
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal {
			recv = f.Scope().Of(sel.X)
		}
	}
	named := keyid.Bind(del.KeyForm(), f.Scope().Of(call.Args[idx]), recv)
	return ownerCompare(info, f, cur, call.Pos(), []keyid.Form{named})
}

// ownerCompare finds the GET-compare in f that guards the node at cur (at
// pos), which deletes keys.
func ownerCompare(info *types.Info, f *redisops.Func, cur inspector.Cursor, pos token.Pos, keys []keyid.Form) *Compare {
	var facts []Fact
	for _, g := range f.OpsOn(keys...) {
		if g.Kind != redisops.Get || g.Key() == nil || g.Call.Pos() >= pos || !sameKey(g.KeyForm(), keys) {
			continue
		}
		inline, v := g.Reply(info)
		if inline == nil && v == nil {
			continue
		}
		isValue := func(e ast.Expr) bool {
			if e = g.ReplyValue(info, e); e == nil {
				return false
			}
			if inline != nil {
				return e == inline
			}
			// The value's variable may be defined after the GET, from
			// the command value kept in a variable (v := cmd.Val()).
			from := max(g.Call.End(), v.Pos())
			id, ok := e.(*ast.Ident)
			return ok && info.Uses[id] == v && id.Pos() > from &&
				!astx.AssignedBetween(info, f.Body, v, from, id.Pos())
		}
		if facts == nil {
			// g is the first GET: the others come after it.
			facts = allFacts(info, cur, f.Node, g.Call.Pos(), true)
		}
		for _, ft := range facts {
			if x, p, ok := prefixCheck(info, cur, ft, pos); ok && isValue(x) && !isValue(p) {
				return &Compare{Get: g, Fact: ft, Value: ast.Unparen(x), Token: p, Inline: inline != nil, Prefix: true}
			}
			var x, y ast.Expr
			b, ok := ft.Cond.(*ast.BinaryExpr)
			switch {
			case ok && (b.Op == token.EQL && ft.True || b.Op == token.NEQ && !ft.True):
				x, y = b.X, b.Y
			case ft.True && bytesEqual(info, ft.Cond):
				call := ast.Unparen(ft.Cond).(*ast.CallExpr)
				x, y, b = call.Args[0], call.Args[1], nil
			default:
				continue
			}
			for _, pair := range [2][2]ast.Expr{{x, y}, {y, x}} {
				if isValue(pair[0]) && !isValue(pair[1]) {
					return &Compare{Get: g, Fact: ft, Cmp: b, Value: ast.Unparen(pair[0]), Token: pair[1], Inline: inline != nil}
				}
			}
		}
	}
	return nil
}

// prefixCheck reads the fact ft (known at pos) as a test that a value
// starts with a prefix that is no constant: strings.HasPrefix(v, p) known
// true, or a call f(v) known true of a function declared in the same file
// whose body is only `return strings.HasPrefix(param, p)`, p built from
// names of the package alone (a host name and process id kept in
// package variables), each of which means the same at pos. It returns v
// and p.
func prefixCheck(info *types.Info, cur inspector.Cursor, ft Fact, pos token.Pos) (ast.Expr, ast.Expr, bool) {
	call, ok := ast.Unparen(ft.Cond).(*ast.CallExpr)
	if !ok || !ft.True {
		return nil, nil, false
	}
	if v, p, ok := hasPrefix(info, call); ok {
		return v, p, true
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || len(call.Args) != 1 || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return nil, nil, false
	}
	// The declaration, in the file of the call.
	var decl *ast.FuncDecl
	for c := range cur.Enclosing((*ast.File)(nil)) {
		for _, d := range c.Node().(*ast.File).Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Pos() == fn.Pos() {
				decl = fd
			}
		}
	}
	if decl == nil || decl.Body == nil || len(decl.Body.List) != 1 || decl.Type.Params.NumFields() != 1 {
		return nil, nil, false
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, nil, false
	}
	inner, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok {
		return nil, nil, false
	}
	v, p, ok := hasPrefix(info, inner)
	params := decl.Type.Params.List[0].Names
	if !ok || len(params) != 1 || info.Uses[astx.IdentOf(v)] != info.Defs[params[0]] || info.Defs[params[0]] == nil ||
		!resolvesAt(info, fn.Pkg().Scope(), p, pos) {
		return nil, nil, false
	}
	return call.Args[0], p, true
}

// hasPrefix reads call as strings.HasPrefix(v, p) with p no constant.
func hasPrefix(info *types.Info, call *ast.CallExpr) (ast.Expr, ast.Expr, bool) {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "strings" || fn.Name() != "HasPrefix" || len(call.Args) != 2 {
		return nil, nil, false
	}
	if tv, ok := info.Types[call.Args[1]]; !ok || tv.Value != nil {
		return nil, nil, false // a constant prefix is every holder's
	}
	return call.Args[0], call.Args[1], true
}

// resolvesAt reports whether every name e uses is one of the package's
// (or a package it imports, or the universe's), and means the same at
// pos: e can be written there.
func resolvesAt(info *types.Info, pkg *types.Scope, e ast.Expr, pos token.Pos) bool {
	at := pkg.Innermost(pos)
	if at == nil {
		return false
	}
	ok := true
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, walk) // the selected name is looked up in X
			return false
		case *ast.FuncLit:
			ok = false
		case *ast.Ident:
			obj := info.Uses[n]
			if obj == nil {
				ok = false
				return false
			}
			if _, found := at.LookupParent(n.Name, pos); found != obj {
				ok = false
			}
		}
		return ok
	}
	ast.Inspect(e, walk)
	return ok
}

// keyForms are the forms of del's keys.
func keyForms(del *redisops.Op) []keyid.Form {
	out := make([]keyid.Form, len(del.Keys))
	for i, k := range del.Keys {
		out[i] = del.FormOf(k)
	}
	return out
}

// bytesEqual reports whether e is a call of bytes.Equal.
func bytesEqual(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 {
		return false
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "bytes" && fn.Name() == "Equal"
}

func sameKey(k keyid.Form, keys []keyid.Form) bool {
	for _, x := range keys {
		if keyid.Same(k, x) {
			return true
		}
	}
	return false
}

// Retried reports whether the delete del is retried in a loop until it
// deletes something: it runs in a for loop (the innermost around it in
// its function; not a range loop, which deletes one key per element, and
// not a loop that also holds the acquire a, which takes the lock again)
// whose condition, or an if statement in it whose body leaves the loop,
// reads the count del replies. Once the lock has expired and another
// process holds it, a retry deletes that holder's lock: no compare made
// before the loop guards it.
func Retried(info *types.Info, del, a *redisops.Op) bool {
	inline, v := del.Reply(info)
	if inline == nil && v == nil {
		return false
	}
	var loop *ast.ForStmt
	label := ""
	for c := range del.Cursor.Enclosing() {
		switch n := c.Node().(type) {
		case *ast.FuncLit, *ast.FuncDecl, *ast.RangeStmt:
			return false
		case *ast.ForStmt:
			loop = n
			if l, ok := c.Parent().Node().(*ast.LabeledStmt); ok {
				label = l.Label.Name
			}
		}
		if loop != nil {
			break
		}
	}
	if loop == nil || a != nil && astx.Encloses(loop, a.Call) {
		return false
	}
	reads := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(m ast.Node) bool {
			if m == inline {
				found = true
			} else if id, ok := m.(*ast.Ident); ok && v != nil && info.Uses[id] == v {
				found = true
			}
			return !found
		})
		return found
	}
	if loop.Cond != nil && reads(loop.Cond) {
		return true
	}
	found := false
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if reads(n.Cond) && leavesLoop(n.Body, label) {
				found = true
			}
		}
		return !found
	})
	return found
}

// leavesLoop reports whether body (inside a loop labelled label, or not
// labelled: "") has a statement that leaves the loop: a return, a break
// of the label, or a break with no label that no inner for, switch or
// select takes.
func leavesLoop(body *ast.BlockStmt, label string) bool {
	found := false
	var walk func(n ast.Node, nested bool)
	walk = func(root ast.Node, nested bool) {
		ast.Inspect(root, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if n != root {
					walk(n, true)
					return false
				}
			case *ast.ReturnStmt:
				found = true
			case *ast.BranchStmt:
				if n.Tok == token.BREAK && (n.Label != nil && n.Label.Name == label || n.Label == nil && !nested) {
					found = true
				}
			}
			return true
		})
	}
	walk(body, false)
	return found
}
