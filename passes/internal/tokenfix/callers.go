package tokenfix

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/astx"
)

// unit is a type-checked package whose files a fix edits: the analyzed
// package, or (under a host that loads the whole module) a package that
// calls the pair.
type unit struct {
	fset  *token.FileSet
	info  *types.Info
	pkg   *types.Package
	files []*ast.File
	read  func(string) ([]byte, error)
}

func unitOf(pass *analysis.Pass) *unit {
	return &unit{fset: pass.Fset, info: pass.TypesInfo, pkg: pass.Pkg, files: pass.Files, read: pass.ReadFile}
}

func (u *unit) fileOf(pos token.Pos) *ast.File {
	for _, f := range u.files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// source is the text of the file holding pos, or nil.
func (u *unit) source(pos token.Pos) (*token.File, []byte) {
	tf := u.fset.File(pos)
	if tf == nil {
		return nil, nil
	}
	b, err := u.read(tf.Name())
	if err != nil || len(b) != tf.Size() {
		return nil, nil
	}
	return tf, b
}

// src is n's text as written.
func (u *unit) src(n ast.Node) string {
	tf, b := u.source(n.Pos())
	if tf == nil {
		return ""
	}
	return string(b[tf.Offset(n.Pos()):tf.Offset(n.End())])
}

// indent is the leading white space of pos's line.
func (u *unit) indent(pos token.Pos) string {
	tf, b := u.source(pos)
	if tf == nil {
		return ""
	}
	start := tf.Offset(tf.LineStart(tf.PositionFor(pos, false).Line))
	end := start
	for end < len(b) && (b[end] == ' ' || b[end] == '\t') {
		end++
	}
	return string(b[start:end])
}

// lineAfter is the start of the line after pos's, when only white space
// and a line comment follow pos on its line: text inserted there goes on
// a line of its own after the statement ending at pos, and its comment
// stays with it.
func (u *unit) lineAfter(pos token.Pos) token.Pos {
	tf, b := u.source(pos)
	if tf == nil {
		return pos
	}
	i := tf.Offset(pos)
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	if i+1 < len(b) && b[i] == '/' && b[i+1] == '/' {
		for i < len(b) && b[i] != '\n' {
			i++
		}
	}
	if i >= len(b) || b[i] != '\n' {
		return pos
	}
	return tf.Pos(i + 1)
}

func (u *unit) lookup(name string, pos token.Pos) types.Object {
	var s *types.Scope
	if f := u.fileOf(pos); f != nil {
		if fs := u.info.Scopes[f]; fs != nil {
			s = fs.Innermost(pos)
		}
	}
	if s == nil {
		s = u.pkg.Scope()
	}
	_, obj := s.LookupParent(name, pos)
	return obj
}

// freeName is the first of names (token, lockToken, token2, … when none
// are given) that decl does not use anywhere, that is not taken, and that
// means nothing at pos.
func freeName(u *unit, decl ast.Node, pos token.Pos, taken map[string]bool, names ...string) string {
	used := map[string]bool{}
	ast.Inspect(decl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	if len(names) == 0 {
		names = []string{"token", "lockToken"}
		for i := 2; i < 10; i++ {
			names = append(names, fmt.Sprintf("token%d", i))
		}
	}
	for _, n := range names {
		if !used[n] && !taken[n] && u.lookup(n, pos) == nil {
			return n
		}
	}
	return ""
}

// The forms of a call of Lock that the fix rewrites.
const (
	formStmt   = iota + 1 // Lock(…)
	formAssign            // a, err := Lock(…) (or =)
	formIfInit            // if a, err := Lock(…); cond {
	formIfCond            // if Lock(…) { / if !Lock(…) {
)

// lockCall is a call of Lock and where its token is in scope once it is
// kept.
type lockCall struct {
	call     *ast.CallExpr
	form     int
	stmt     ast.Stmt        // the statement holding the call (the if for the if forms)
	assign   *ast.AssignStmt // formAssign in an if's init: the assignment
	list     ast.Node        // the statement list holding stmt
	decl     *ast.FuncDecl
	from, to token.Pos // where the kept token is in scope
	outer    bool      // formIfInit: an Unlock after the if needs it
	name     string
	used     bool
	recv     string // the receiver, for a method
}

type unlockCall struct {
	call *ast.CallExpr
	decl *ast.FuncDecl
	tok  string    // the token in Lock itself
	lc   *lockCall // else the call whose token it takes
	recv string    // the receiver, for a method

	renew bool // a call of the renewing function (renew.go)
}

// callerEdits rewrites u's calls of the pair (match tells Lock's and
// Unlock's objects), or says why it cannot.
func (p *pair) callerEdits(u *unit, match func(types.Object) (lock, unlock bool)) string {
	lname, uname := p.lfn.Name(), p.ufn.Name()
	var locks []*lockCall
	var unlocks []*unlockCall
	var why string
	for _, f := range u.files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if why != "" {
				return false
			}
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			defer func() { stack = append(stack, n) }()
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			isL, isU := match(u.info.Uses[id])
			isR := !isL && !isU && p.rfn != nil && sameFunc(u.info.Uses[id], p.rfn)
			if !isL && !isU && !isR {
				return true
			}
			// The call whose function id names.
			i := len(stack) - 1
			var fun ast.Node = id
			if sel, ok := stack[i].(*ast.SelectorExpr); ok && sel.Sel == id {
				fun, i = sel, i-1
			}
			call, ok := stack[i].(*ast.CallExpr)
			if !ok || call.Fun != fun {
				why = fmt.Sprintf("%s is used as a value", id.Name)
				return true
			}
			decl := outerDecl(stack)
			if decl == nil {
				why = fmt.Sprintf("%s is called outside a function", id.Name)
				return true
			}
			path := append([]ast.Node(nil), stack[:i]...)
			recv := ""
			if sel, ok := fun.(*ast.SelectorExpr); ok {
				if s, ok := u.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
					recv = u.src(sel.X)
				}
			}
			if isL {
				lc, w := p.classify(call, path, decl)
				if w != "" {
					why = w
					return true
				}
				lc.recv = recv
				locks = append(locks, lc)
			} else {
				unlocks = append(unlocks, &unlockCall{call: call, decl: decl, recv: recv, renew: isR})
			}
			return true
		})
		if why != "" {
			return why
		}
	}

	// Each Unlock takes the token of the one Lock call in whose scope it is.
	for _, uc := range unlocks {
		uname := uname
		if uc.renew {
			uname = p.rfn.Name()
		}
		if uc.decl == p.ldecl {
			uc.tok = p.lName
			continue
		}
		var found, outer []*lockCall
		for _, lc := range locks {
			if lc.decl != uc.decl || uc.call.Pos() < lc.call.End() {
				continue
			}
			switch {
			case lc.from <= uc.call.Pos() && uc.call.End() <= lc.to:
				found = append(found, lc)
			case lc.form == formIfInit && lc.stmt.End() <= uc.call.Pos() && uc.call.End() <= lc.list.End():
				outer = append(outer, lc)
			}
		}
		if len(found) == 0 && len(outer) == 1 {
			found = outer
			outer[0].outer = true
		}
		if len(found) == 1 && found[0].recv != uc.recv {
			return fmt.Sprintf("%s in %s is called on another receiver", uname, p.fname(uc.decl))
		}
		switch len(found) {
		case 0:
			if tok := p.nestedRelease(u, uc, locks, unlocks); tok != "" {
				uc.tok = tok
				continue
			}
			return fmt.Sprintf("%s in %s has no %s token in scope", uname, p.fname(uc.decl), lname)
		case 1:
			found[0].used = true
			uc.lc = found[0]
		default:
			return fmt.Sprintf("two %s calls before %s in %s", lname, uname, p.fname(uc.decl))
		}
	}

	taken := map[*ast.FuncDecl]map[string]bool{}
	for _, lc := range locks {
		if !lc.used {
			continue
		}
		if taken[lc.decl] == nil {
			taken[lc.decl] = map[string]bool{}
		}
		lc.name = freeName(u, lc.decl, lc.stmt.Pos(), taken[lc.decl])
		if lc.name == "" {
			return "no free name for the token in " + p.fname(lc.decl)
		}
		taken[lc.decl][lc.name] = true
	}
	for _, n := range p.nests {
		if n.u == u && n.q == nil {
			if w := p.nestEdits(n); w != "" {
				return w
			}
		}
	}
	for _, lc := range locks {
		if w := p.rewriteLock(u, lc, taken); w != "" {
			return w
		}
	}
	for _, uc := range unlocks {
		tok := uc.tok
		if uc.lc != nil {
			tok = uc.lc.name
		}
		if uc.renew {
			p.tokenArg(uc.call, tok, p.rIndex)
		} else {
			p.tokenArg(uc.call, tok, p.uIndex)
		}
	}
	return ""
}

// fname names decl in a message: qualified by its package's name when
// that is not the pair's.
func (p *pair) fname(decl *ast.FuncDecl) string { return p.qual + decl.Name.Name }

// outerDecl is the function declaration in stack.
func outerDecl(stack []ast.Node) *ast.FuncDecl {
	for _, n := range stack {
		if d, ok := n.(*ast.FuncDecl); ok {
			return d
		}
	}
	return nil
}

func isList(n ast.Node) bool {
	switch n.(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// classify finds the form of a call of Lock, path being its ancestors.
func (p *pair) classify(call *ast.CallExpr, path []ast.Node, decl *ast.FuncDecl) (*lockCall, string) {
	lname := p.lfn.Name()
	passed := fmt.Sprintf("%s's result is passed on in %s", lname, p.fname(decl))
	i := len(path) - 1
	var child ast.Node = call
	for i >= 0 {
		if pe, ok := path[i].(*ast.ParenExpr); ok {
			child, i = pe, i-1
			continue
		}
		break
	}
	if i < 1 {
		return nil, passed
	}
	lc := &lockCall{call: call, decl: decl}
	parent := path[i]
	switch x := parent.(type) {
	case *ast.ExprStmt:
		lc.form, lc.stmt = formStmt, x
	case *ast.AssignStmt:
		if len(x.Rhs) != 1 || x.Rhs[0] != child || len(x.Lhs) != p.n {
			return nil, passed
		}
		if ifs, ok := path[i-1].(*ast.IfStmt); ok && ifs.Init == x {
			if i < 2 || !isList(path[i-2]) {
				return nil, passed
			}
			if x.Tok == token.ASSIGN {
				// if err = Lock(); err != nil: the token is declared
				// before the if and assigned with the others.
				lc.form, lc.stmt, lc.assign, lc.list = formAssign, ifs, x, path[i-2]
				lc.from, lc.to = x.End(), lc.list.End()
				return lc, ""
			}
			if x.Tok != token.DEFINE {
				return nil, passed
			}
			lc.form, lc.stmt, lc.list = formIfInit, ifs, path[i-2]
			lc.from, lc.to = x.End(), ifs.End()
			return lc, ""
		}
		lc.form, lc.stmt = formAssign, x
	case *ast.UnaryExpr, *ast.IfStmt:
		if u, ok := x.(*ast.UnaryExpr); ok {
			if u.Op != token.NOT || i < 1 {
				return nil, passed
			}
			child, i = u, i-1
		}
		ifs, ok := path[i].(*ast.IfStmt)
		if !ok || ifs.Cond != child || ifs.Init != nil || p.n != 1 || i < 1 || !isList(path[i-1]) {
			return nil, passed
		}
		lc.form, lc.stmt, lc.list = formIfCond, ifs, path[i-1]
		lc.from, lc.to = ifs.Pos(), lc.list.End()
		return lc, ""
	default:
		return nil, passed
	}
	if !isList(path[i-1]) {
		return nil, passed
	}
	lc.list = path[i-1]
	lc.from, lc.to = lc.stmt.End(), lc.list.End()
	return lc, ""
}

// rewriteLock keeps the token of one call of Lock (in lc.name, or in _
// when no Unlock needs it).
func (p *pair) rewriteLock(u *unit, lc *lockCall, taken map[*ast.FuncDecl]map[string]bool) string {
	tok := lc.name
	if !lc.used {
		tok = "_"
	}
	lhsWith := func(lhs []string) string {
		out := append(append(append([]string{}, lhs[:p.k]...), tok), lhs[p.k:]...)
		return strings.Join(out, ", ")
	}
	blanks := func() []string {
		b := make([]string, p.n)
		for i := range b {
			b[i] = "_"
		}
		return b
	}
	indent := u.indent(lc.stmt.Pos())
	switch lc.form {
	case formStmt:
		if !lc.used {
			return ""
		}
		p.insert(lc.call.Pos(), lhsWith(blanks())+" := ")
	case formAssign, formIfInit:
		as := lc.stmt.(ast.Node)
		if lc.form == formIfInit {
			as = lc.stmt.(*ast.IfStmt).Init
		}
		a, ok := as.(*ast.AssignStmt)
		if !ok {
			a = lc.assign
		}
		if lc.form == formIfInit && lc.outer {
			if w := p.hoistable(u, lc); w != "" {
				// Its names would change meaning before the if: the
				// call moves with fresh names instead.
				return p.hoistRenamed(u, lc, a, taken)
			}
			ifs := lc.stmt.(*ast.IfStmt)
			var lhs []string
			for _, l := range a.Lhs {
				lhs = append(lhs, u.src(l))
			}
			// The init moves before the if.
			p.edits = append(p.edits, analysis.TextEdit{Pos: a.Pos(), End: ifs.Cond.Pos()})
			p.insert(ifs.Pos(), lhsWith(lhs)+" := "+u.src(a.Rhs[0])+"\n"+indent)
			break
		}
		if lc.form == formAssign && a.Tok == token.ASSIGN && lc.used {
			p.insert(lc.stmt.Pos(), "var "+tok+" string\n"+indent)
		}
		if p.k == len(a.Lhs) {
			p.insert(a.Lhs[len(a.Lhs)-1].End(), ", "+tok)
		} else {
			p.insert(a.Lhs[p.k].Pos(), tok+", ")
		}
	case formIfCond:
		base := "ok"
		if isError(p.lfn.Signature().Results().At(0).Type()) {
			base = "err"
		} else if !types.Identical(p.lfn.Signature().Results().At(0).Type(), types.Typ[types.Bool]) {
			base = "v"
		}
		if taken[lc.decl] == nil {
			taken[lc.decl] = map[string]bool{}
		}
		v := freeName(u, lc.decl, lc.stmt.Pos(), taken[lc.decl], base, base+"2", "locked")
		if v == "" {
			return "no free name in " + p.fname(lc.decl)
		}
		taken[lc.decl][v] = true
		p.insert(lc.stmt.Pos(), lhsWith([]string{v})+" := "+u.src(lc.call)+"\n"+indent)
		p.edits = append(p.edits, fixesReplace(lc.call, v))
	}
	return ""
}

// hoistable reports why the init of an if that calls Lock cannot move
// before the if (the token it keeps is needed after the if), or "".
// The names it declares become names of the enclosing block: a name
// declared there already is assigned instead (it must have the type),
// and a name the block uses or declares after the if must not change
// meaning.
func (p *pair) hoistable(u *unit, lc *lockCall) string {
	ifs := lc.stmt.(*ast.IfStmt)
	a := ifs.Init.(*ast.AssignStmt)
	// The block's scope (a function body has its function's).
	var scope *types.Scope
	if f := u.fileOf(ifs.Pos()); f != nil && u.info.Scopes[f] != nil {
		scope = u.info.Scopes[f].Innermost(ifs.Pos() - 1)
	}
	if scope == nil {
		return "no scope at " + p.fname(lc.decl)
	}
	why := fmt.Sprintf("%s keeps its result in the if in %s", p.lfn.Name(), p.fname(lc.decl))
	for _, l := range a.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		v := u.info.Defs[id]
		if v == nil {
			v = u.info.Uses[id]
		}
		if old := scope.Lookup(id.Name); old != nil && old.Pos() < ifs.Pos() {
			if v == nil || !types.Identical(old.Type(), v.Type()) {
				return why
			}
			continue
		}
		// Nothing after the if may declare the name again in the block,
		// nor use an outer variable of the name.
		bad := false
		for _, s := range astx.StmtList(lc.list) {
			if s.Pos() < ifs.End() {
				continue
			}
			switch s := s.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE && declares(u.info, s.Lhs, id.Name) && newNames(u.info, s.Lhs, id.Name) == 0 {
					bad = true
				}
			case *ast.DeclStmt:
				if gd, ok := s.Decl.(*ast.GenDecl); ok {
					for _, sp := range gd.Specs {
						if vs, ok := sp.(*ast.ValueSpec); ok {
							for _, n := range vs.Names {
								if n.Name == id.Name {
									bad = true
								}
							}
						}
					}
				}
			}
			ast.Inspect(s, func(n ast.Node) bool {
				if x, ok := n.(*ast.Ident); ok && x.Name == id.Name {
					if o := u.info.Uses[x]; o != nil && o.Pos() < ifs.Pos() {
						bad = true
					}
				}
				return !bad
			})
		}
		if bad {
			return why
		}
	}
	return ""
}

func declares(info *types.Info, lhs []ast.Expr, name string) bool {
	for _, l := range lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name == name && info.Defs[id] != nil {
			return true
		}
	}
	return false
}

// newNames counts the names lhs declares besides name.
func newNames(info *types.Info, lhs []ast.Expr, name string) int {
	n := 0
	for _, l := range lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != name && id.Name != "_" && info.Defs[id] != nil {
			n++
		}
	}
	return n
}

// tokenArg passes tok to a call of Unlock (or of the renewing
// function), as its parameter at index i.
func (p *pair) tokenArg(call *ast.CallExpr, tok string, i int) {
	switch {
	case len(call.Args) > i:
		p.insert(call.Args[i].Pos(), tok+", ")
	case len(call.Args) == 0:
		p.insert(call.Rparen, tok)
	default:
		p.insert(call.Args[len(call.Args)-1].End(), ", "+tok)
	}
}
