package acquireresult

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/redisops"
)

// checkBoolFix builds the fix for a SetNX-style acquire whose error alone
// is checked, in one of two shapes:
//
//	if err := cmd.Err(); err != nil { …; return … }
//	err := cmd.Err()
//	if err != nil { …; return … }
//
// The read gains the value (ok, err := cmd.Result()) and a branch returns
// "not acquired" when it is false. The busy return must follow from the
// function's results: none (return), (bool) or (bool, error) where the
// function says what its bool answers (polarity); why says when they do
// not.
func (c *checker) checkBoolFix(a *redisops.Op, out redisops.Outcome) (*analysis.SuggestedFix, string) {
	errID, ok := out.Err.(*ast.Ident)
	if !ok {
		return nil, ""
	}
	ifs, inInit := c.guard(out, func(cond ast.Expr) bool { return c.errTest(cond, errID, token.NEQ) })
	if ifs == nil {
		return nil, ""
	}
	ret, ok := c.busyReturn(a)
	if !ok {
		fname := "the function"
		if d, ok := a.Func.Node.(*ast.FuncDecl); ok {
			fname = d.Name.Name
		}
		return nil, "the results of " + fname + " do not say what to return when busy"
	}
	// The test for busy, by how the value shows it.
	names, cond := []string{"ok", "acquired"}, "!%s"
	switch out.Busy {
	case redisops.BusyNil:
		names, cond = []string{"reply", "res"}, "%s == nil"
	case redisops.BusyZero:
		// Only an integer compares with 0 (an int64 in an interface does not).
		t, ok := c.pass.TypesInfo.TypeOf(out.Accessor).(*types.Tuple)
		if !ok || t.Len() != 2 {
			return nil, ""
		}
		if b, ok := t.At(0).Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return nil, ""
		}
		names, cond = []string{"n", "set"}, "%s == 0"
	}
	name := c.freshName(out.Stmt.Pos(), names...)
	if name == "" {
		return nil, ""
	}
	edits, ok := a.ReadBoth(out, name)
	if !ok {
		return nil, ""
	}
	edits = append(edits, c.branch(ifs, inInit, fmt.Sprintf(cond, name), ret))
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Check whether %s set the key and %s when it did not", a.Method, ret),
		TextEdits: edits,
	}, ""
}

// failFix builds the fix for a SetArgs-style acquire whose busy error
// alone is handled, in the shapes
//
//	if err := cmd.Err(); err == <busy> { …; return … }
//	err := cmd.Err()
//	if err == <busy> { …; return … }
//
// (or errors.Is(err, <busy>)): a branch after the busy check returns the
// error. The return must follow from the function's results: (error),
// (bool, error) or (bool) where the function returns true for acquired.
func (c *checker) failFix(a *redisops.Op, out redisops.Outcome) *analysis.SuggestedFix {
	errID, ok := out.Err.(*ast.Ident)
	if !ok {
		return nil
	}
	ifs, inInit := c.guard(out, func(cond ast.Expr) bool {
		cond = ast.Unparen(cond)
		if b, ok := cond.(*ast.BinaryExpr); ok && b.Op == token.EQL {
			for _, side := range []ast.Expr{b.X, b.Y} {
				if isIdent(side, errID, c.pass.TypesInfo) && c.busyRole(a, ast.Unparen(side), b) != nil {
					return true
				}
			}
			return false
		}
		if call, ok := cond.(*ast.CallExpr); ok && len(call.Args) > 0 && isIdent(call.Args[0], errID, c.pass.TypesInfo) {
			return c.busyRole(a, ast.Unparen(call.Args[0]), call) != nil
		}
		return false
	})
	if ifs == nil {
		return nil
	}
	ret, ok := c.failReturn(a, errID.Name)
	if !ok {
		return nil
	}
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Return the error of %s when it is not the busy reply", a.Method),
		TextEdits: []analysis.TextEdit{c.branch(ifs, inInit, errID.Name+" != nil", ret)},
	}
}

func isIdent(e ast.Expr, id *ast.Ident, info *types.Info) bool {
	x, ok := ast.Unparen(e).(*ast.Ident)
	return ok && info.Uses[x] == info.ObjectOf(id)
}

// errTest reports whether cond is `err op nil` for the variable id.
func (c *checker) errTest(cond ast.Expr, id *ast.Ident, op token.Token) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != op {
		return false
	}
	info := c.pass.TypesInfo
	isNil := func(e ast.Expr) bool { tv, ok := info.Types[e]; return ok && tv.IsNil() }
	return isIdent(b.X, id, info) && isNil(b.Y) || isIdent(b.Y, id, info) && isNil(b.X)
}

// guard finds the if statement that tests the read out.Stmt assigns: the
// statement's own if (inInit) or the statement right after it. The if has
// no else, cond satisfies pred, and its body ends in a return.
func (c *checker) guard(out redisops.Outcome, pred func(ast.Expr) bool) (ifs *ast.IfStmt, inInit bool) {
	as, ok := out.Stmt.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE {
		return nil, false
	}
	scur := out.ExprCursor.Parent()
	if scur.Node() != as {
		return nil, false
	}
	switch p := scur.Parent().Node().(type) {
	case *ast.IfStmt:
		if p.Init == as {
			ifs, inInit = p, true
		}
	case *ast.BlockStmt:
		ifs = next(p.List, as)
	case *ast.CaseClause:
		ifs = next(p.Body, as)
	case *ast.CommClause:
		ifs = next(p.Body, as)
	}
	if ifs == nil || ifs.Else != nil || !inInit && ifs.Init != nil || !pred(ifs.Cond) || len(ifs.Body.List) == 0 {
		return nil, false
	}
	if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
		return nil, false
	}
	return ifs, inInit
}

func next(list []ast.Stmt, s ast.Stmt) *ast.IfStmt {
	for i, x := range list {
		if x == s && i+1 < len(list) {
			ifs, _ := list[i+1].(*ast.IfStmt)
			return ifs
		}
	}
	return nil
}

// branch adds `if cond { ret }` after ifs: as an else-if when the tested
// variable is declared in ifs' init, as a statement after it otherwise.
func (c *checker) branch(ifs *ast.IfStmt, inInit bool, cond, ret string) analysis.TextEdit {
	ind := fixes.Indent(c.pass, ifs.Pos())
	body := " {\n" + ind + "\t" + ret + "\n" + ind + "}"
	if inInit {
		return analysis.TextEdit{Pos: ifs.Body.End(), End: ifs.Body.End(), NewText: []byte(" else if " + cond + body)}
	}
	return analysis.TextEdit{Pos: ifs.End(), End: ifs.End(), NewText: []byte("\n" + ind + "if " + cond + body)}
}

// freshName picks a name for the value variable that no code in scope at
// pos sees and that the scope does not declare later.
func (c *checker) freshName(pos token.Pos, names ...string) string {
	scope := fixes.ScopeAt(c.pass, c.res.FileIndex(c.pass).At(pos), pos)
	if scope == nil {
		return ""
	}
	for _, name := range names {
		if _, obj := scope.LookupParent(name, pos); obj != nil {
			continue
		}
		if scope.Lookup(name) != nil {
			continue
		}
		return name
	}
	return ""
}

// results classifies the acquiring function's results: none, (bool),
// (error) or (bool, error); pol says what its bool answers (polarity).
func (c *checker) results(a *redisops.Op) (shape string, pol polarity) {
	sig, body := c.signature(a)
	if sig == nil {
		return "", polUnknown
	}
	rs := sig.Results()
	switch {
	case rs.Len() == 0:
		return "()", polUnknown
	case rs.Len() == 1 && isBool(rs.At(0).Type()):
		shape = "(bool)"
	case rs.Len() == 1 && isError(rs.At(0).Type()):
		return "(error)", polUnknown
	case rs.Len() == 2 && isBool(rs.At(0).Type()) && isError(rs.At(1).Type()):
		shape = "(bool, error)"
	default:
		return "", polUnknown
	}
	return shape, c.polarity(a, sig, body)
}

func (c *checker) signature(a *redisops.Op) (*types.Signature, *ast.BlockStmt) {
	switch n := a.Func.Node.(type) {
	case *ast.FuncDecl:
		if fn, ok := c.pass.TypesInfo.Defs[n.Name].(*types.Func); ok {
			return fn.Type().(*types.Signature), n.Body
		}
	case *ast.FuncLit:
		sig, _ := c.pass.TypesInfo.TypeOf(n).(*types.Signature)
		return sig, n.Body
	}
	return nil, nil
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

func (c *checker) busyReturn(a *redisops.Op) (string, bool) {
	switch shape, pol := c.results(a); {
	case shape == "()":
		return "return", true
	case shape == "(bool)" && pol != polUnknown:
		return "return " + pol.notAcquired(), true
	case shape == "(bool, error)" && pol != polUnknown:
		return "return " + pol.notAcquired() + ", nil", true
	}
	return "", false
}

func (c *checker) failReturn(a *redisops.Op, err string) (string, bool) {
	switch shape, pol := c.results(a); {
	case shape == "(error)":
		return "return " + err, true
	case shape == "(bool)" && pol != polUnknown:
		return "return " + pol.notAcquired(), true
	case shape == "(bool, error)" && pol != polUnknown:
		return "return " + pol.notAcquired() + ", " + err, true
	}
	return "", false
}

// failClosedFix builds the fix for a return of true (acquired) that only a
// failed acquire reaches: it returns false instead, and, where the function
// also returns an error and returns nil there, the acquire's error. A
// return also reached by an acquired or a busy outcome is not changed: its
// true may be right on those paths.
func (c *checker) failClosedFix(f *flow, pick *sink) *analysis.SuggestedFix {
	ret, ok := pick.node.(*ast.ReturnStmt)
	if !ok || pick.kind != retTrue || pick.s != failed || f.boolIdx < 0 || len(ret.Results) != f.nres {
		return nil
	}
	edits := []analysis.TextEdit{fixes.Replace(ret.Results[f.boolIdx], "false")}
	if f.lastErr >= 0 && f.isNil(ret.Results[f.lastErr]) {
		errID, ok := f.out.Err.(*ast.Ident)
		if !ok || !fixes.InScopeAt(c.pass.TypesInfo, c.pass.Pkg, errID, ret.Pos()) {
			return nil
		}
		edits = append(edits, fixes.Replace(ret.Results[f.lastErr], errID.Name))
	}
	return &analysis.SuggestedFix{Message: "Return false (not acquired) when the acquire fails", TextEdits: edits}
}

// stopFix builds the fix for an acquire whose error, the only sign that it
// did not take the lock, is discarded (m.Lock() as a statement, or _ =
// m.Lock()). The statement becomes
//
//	if err := m.Lock(); err != nil {
//		return <zero values>, err
//	}
//
// returning the error where the function's last result is an error (with
// "not acquired" in a bool result, see polarity, and zero values in the
// others), "not acquired" where its only result is that bool, and nothing
// where it has no results and goes on to the work after the acquire.
// Where none of these fits, why says so in a few words.
func (c *checker) stopFix(a *redisops.Op, out redisops.Outcome) (fix *analysis.SuggestedFix, why string) {
	stmt, ok := out.Stmt.(ast.Stmt)
	if !ok || a.Client == "declared" {
		return nil, "" // a declared wrapper's findings carry no fix
	}
	switch s := stmt.(type) {
	case *ast.ExprStmt:
		if s.X != out.Expr {
			return nil, ""
		}
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 || !isBlank(s.Lhs[0]) || s.Rhs[0] != out.Expr {
			return nil, ""
		}
	default:
		return nil, ""
	}
	list, ok := stmtList(out.ExprCursor.Parent().Parent().Node())
	if !ok || out.ExprCursor.Parent().Node() != stmt || !isError(c.pass.TypesInfo.TypeOf(out.Expr)) {
		return nil, "" // a call that returns more than its error
	}
	sig, body := c.signature(a)
	if sig == nil {
		return nil, ""
	}
	fname := "the function"
	if d, ok := a.Func.Node.(*ast.FuncDecl); ok {
		fname = d.Name.Name
	}
	call := fixes.Text(c.pass.Fset, out.Expr)
	rs := sig.Results()
	var ret, head string
	switch {
	case rs.Len() == 0:
		if !workAfter(list, stmt) {
			return nil, fname + " returns nothing to report the failure with"
		}
		head, ret = "err := "+call+"; err != nil", "return"
	case isError(rs.At(rs.Len() - 1).Type()):
		var vals []string
		for i := range rs.Len() - 1 {
			t := rs.At(i).Type()
			if isBool(t) {
				pol := c.polarity(a, sig, body)
				if pol == polUnknown {
					return nil, "what the bool result of " + fname + " answers is not clear"
				}
				vals = append(vals, pol.notAcquired())
				continue
			}
			z, ok := zeroText(t)
			if !ok {
				return nil, ""
			}
			vals = append(vals, z)
		}
		head, ret = "err := "+call+"; err != nil", "return "+strings.Join(append(vals, "err"), ", ")
	case rs.Len() == 1 && isBool(rs.At(0).Type()):
		pol := c.polarity(a, sig, body)
		if pol == polUnknown {
			return nil, "what the bool result of " + fname + " answers is not clear"
		}
		head, ret = call+" != nil", "return "+pol.notAcquired()
	default:
		return nil, fname + " has no error result to report the failure with"
	}
	ind := fixes.Indent(c.pass, stmt.Pos())
	text := "if " + head + " {\n" + ind + "\t" + ret + "\n" + ind + "}"
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Stop when %s fails", a.Method),
		TextEdits: []analysis.TextEdit{fixes.Replace(stmt, text)},
	}, ""
}

// stmtList is the statement list of a block or a clause.
func stmtList(n ast.Node) ([]ast.Stmt, bool) {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List, true
	case *ast.CaseClause:
		return n.Body, true
	case *ast.CommClause:
		return n.Body, true
	}
	return nil, false
}

// workAfter reports whether a statement other than a bare return follows
// s in list: the work that returning early skips.
func workAfter(list []ast.Stmt, s ast.Stmt) bool {
	i := slices.Index(list, s)
	if i < 0 {
		return false
	}
	for _, x := range list[i+1:] {
		if r, ok := x.(*ast.ReturnStmt); ok && len(r.Results) == 0 {
			continue
		}
		if _, ok := x.(*ast.EmptyStmt); ok {
			continue
		}
		return true
	}
	return false
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// zeroText is the source of the zero value of t where it can be written
// without naming a type: false, 0, "", nil.
func zeroText(t types.Type) (string, bool) {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return "", false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false", true
		case u.Info()&types.IsNumeric != 0:
			return "0", true
		case u.Info()&types.IsString != 0:
			return `""`, true
		case u.Kind() == types.UnsafePointer:
			return "nil", true
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil", true
	}
	return "", false
}
