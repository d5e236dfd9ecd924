// Package fixes builds the text edits of lockvet's suggested fixes: source
// text of expressions, replacements, and deletion of statements without
// leaving code that no longer compiles.
package fixes

import (
	"bytes"
	"cmp"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/lockvet/lockvet/passes/internal/astx"
)

// Text is the source text of n, as go/format prints it.
func Text(fset *token.FileSet, n ast.Node) string {
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, n); err != nil {
		return ""
	}
	return buf.String()
}

// Replace replaces n with text.
func Replace(n ast.Node, text string) analysis.TextEdit {
	return analysis.TextEdit{Pos: n.Pos(), End: n.End(), NewText: []byte(text)}
}

// AppendElt adds an element to a composite literal.
func AppendElt(fset *token.FileSet, lit *ast.CompositeLit, text string) analysis.TextEdit {
	if len(lit.Elts) == 0 {
		return analysis.TextEdit{Pos: lit.Rbrace, End: lit.Rbrace, NewText: []byte(text)}
	}
	end := lit.Elts[len(lit.Elts)-1].End()
	return analysis.TextEdit{Pos: end, End: end, NewText: []byte(", " + text)}
}

// DeleteStmt deletes stmt; when it stands alone on its lines, the whole
// lines go (with a trailing comment), so no blank line is left behind.
func DeleteStmt(pass *analysis.Pass, stmt ast.Stmt) analysis.TextEdit {
	return deleteLines(pass, stmt.Pos(), stmt.End())
}

// deleteLines deletes [pos, end), widened to whole lines (and a trailing
// line comment) when nothing else stands on them.
func deleteLines(pass *analysis.Pass, pos, end token.Pos) analysis.TextEdit {
	tf := pass.Fset.File(pos)
	edit := analysis.TextEdit{Pos: pos, End: end}
	if tf == nil {
		return edit
	}
	src, err := pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return edit
	}
	start, stop := tf.Offset(pos), tf.Offset(end)
	ls := start
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	le := stop
	for le < len(src) && (src[le] == ' ' || src[le] == '\t' || src[le] == ';') {
		le++
	}
	// A trailing line comment belongs to the statement.
	if le+1 < len(src) && src[le] == '/' && src[le+1] == '/' {
		for le < len(src) && src[le] != '\n' {
			le++
		}
	}
	if (ls == 0 || src[ls-1] == '\n') && (le == len(src) || src[le] == '\n') {
		if le < len(src) {
			le++
		}
		edit.Pos, edit.End = tf.Pos(ls), tf.Pos(le)
	}
	return edit
}

// Removable finds the statement to delete to remove the call at cur
// without breaking the code, or reports false when the call's result is
// used. Accepted shapes:
//
//	call                      (also call.Err(), call.Val(), call.Error(), …)
//	_ = call / _, _ = call.Result()
//	if err := call.Err(); err != nil { … }     (no else; the whole if goes)
//
// and, around any of these, an if statement with no init and no else whose
// body is just that statement and whose condition has no calls (the whole
// if goes: an empty branch is left for nobody).
func Removable(info *types.Info, cur inspector.Cursor) (ast.Stmt, bool) {
	// Climb through result accessors: call.Err(), call.Result(), call.Val()
	// (go-redis), call.Error(), call.AsBool() (rueidis): any method called
	// without arguments on the call's result.
	c := cur
	for {
		sel, ok := c.Parent().Node().(*ast.SelectorExpr)
		if !ok || sel.X != c.Node() {
			break
		}
		outer, ok := c.Parent().Parent().Node().(*ast.CallExpr)
		if !ok || outer.Fun != sel || len(outer.Args) != 0 {
			return nil, false
		}
		if s, ok := info.Selections[sel]; !ok || s.Kind() != types.MethodVal {
			return nil, false
		}
		c = c.Parent().Parent()
	}
	var stmt ast.Stmt
	var stmtCur inspector.Cursor
	switch p := c.Parent().Node().(type) {
	case *ast.ExprStmt:
		stmt, stmtCur = p, c.Parent()
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 {
			return nil, false
		}
		allBlank := true
		for _, l := range p.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				allBlank = false
			}
		}
		if allBlank {
			stmt, stmtCur = p, c.Parent()
			break
		}
		// if err := call.Err(); err != nil { … }
		ifs, ok := c.Parent().Parent().Node().(*ast.IfStmt)
		if !ok || ifs.Init != p || p.Tok != token.DEFINE || ifs.Else != nil {
			return nil, false
		}
		stmt, stmtCur = ifs, c.Parent().Parent()
	default:
		return nil, false
	}
	// if cond { stmt } → delete the if.
	if blk, ok := stmtCur.Parent().Node().(*ast.BlockStmt); ok && len(blk.List) == 1 {
		if ifs, ok := stmtCur.Parent().Parent().Node().(*ast.IfStmt); ok && ifs.Body == blk && ifs.Init == nil && ifs.Else == nil && !hasCall(ifs.Cond) {
			stmt = ifs
		}
	}
	return stmt, true
}

func hasCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.CallExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// Memo shares values built once per package between the checks
// (redisops.Result.Shared).
type Memo interface {
	Shared(key any, build func() any) any
}

// Orphans reports whether deleting [start, end) from body would leave a
// local variable declared outside that range with no remaining use
// ("declared and not used"). Uses inside kept (text that is copied
// elsewhere) count as remaining. The uses of body's locals are indexed once
// per body (in memo, when not nil), so each question costs the deleted
// range, not a walk of the function.
func Orphans(memo Memo, info *types.Info, body ast.Node, start, end token.Pos, kept ...ast.Node) bool {
	x := localUsesOf(memo, info, body)
	lo, _ := slices.BinarySearchFunc(x.uses, start, func(u localUse, pos token.Pos) int { return cmp.Compare(u.pos, pos) })
	inRange := map[*types.Var]int{} // uses inside the range of locals declared outside it
	for _, u := range x.uses[lo:] {
		if u.pos >= end {
			break
		}
		if u.v.Pos() < start || u.v.Pos() >= end {
			inRange[u.v]++
		}
	}
	if len(inRange) == 0 {
		return false
	}
	used := map[*types.Var]bool{}
	for v, n := range inRange {
		if x.count[v] > n {
			used[v] = true
		}
	}
	for _, k := range kept {
		ast.Inspect(k, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok && inRange[v] > 0 {
					used[v] = true
				}
			}
			return true
		})
	}
	return len(used) < len(inRange)
}

// localUses are the uses of a body's local variables, in position order,
// and their number per variable.
type localUses struct {
	uses  []localUse
	count map[*types.Var]int
}

type localUse struct {
	pos token.Pos
	v   *types.Var
}

type localUsesKey struct{ body ast.Node }

func localUsesOf(memo Memo, info *types.Info, body ast.Node) *localUses {
	build := func() any {
		x := &localUses{count: map[*types.Var]int{}}
		ast.Inspect(body, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Pos() >= body.Pos() && v.Pos() < body.End() {
				x.uses = append(x.uses, localUse{id.Pos(), v})
				x.count[v]++
			}
			return true
		})
		return x
	}
	if memo == nil {
		return build().(*localUses)
	}
	return memo.Shared(localUsesKey{body}, build).(*localUses)
}

// InScopeAt reports whether every identifier in e resolves, at pos, to the
// same object it resolves to where e is written: declared before pos (or at
// package or universe scope) in a scope that encloses pos.
func InScopeAt(info *types.Info, pkg *types.Package, e ast.Expr, pos token.Pos) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || !ok {
			return ok
		}
		obj := info.Uses[id]
		if obj == nil {
			return true // field names in selectors and composite keys
		}
		if _, isPkg := obj.(*types.PkgName); isPkg {
			return true
		}
		if obj.Pkg() != pkg || obj.Parent() == nil || obj.Parent() == types.Universe || obj.Parent() == pkg.Scope() {
			return true
		}
		if obj.Pos() >= pos {
			ok = false
			return false
		}
		// The declaring scope must enclose pos.
		if s := obj.Parent(); !(s.Pos() <= pos && pos <= s.End()) {
			ok = false
		}
		return ok
	})
	return ok
}

// Indent is the leading white space of the line holding pos, or "" when
// the file cannot be read.
func Indent(pass *analysis.Pass, pos token.Pos) string {
	indent, _ := astx.LineIndent(pass.Fset, pass.ReadFile, pos)
	return indent
}

// WithDeletion adds del, a deletion, to edits, dropping the edits that
// lie inside what it deletes (a rewritten test in an if that goes as a
// whole). ok is false when an edit straddles its bounds.
func WithDeletion(edits []analysis.TextEdit, del analysis.TextEdit) ([]analysis.TextEdit, bool) {
	out := make([]analysis.TextEdit, 0, len(edits)+1)
	for _, e := range edits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		switch {
		case del.Pos <= e.Pos && end <= del.End && (e.Pos != end || del.Pos < e.Pos && e.Pos < del.End):
			continue // inside: deleted with it
		case e.Pos < del.End && del.Pos < end:
			return nil, false
		}
		out = append(out, e)
	}
	return append(out, del), true
}
