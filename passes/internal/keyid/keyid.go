// Package keyid decides whether two key expressions name the same Redis key.
//
// The rule is deliberately narrow, so that checks stay silent when unsure:
// two expressions are the same key when they are the same constant value,
// the same variable (not reassigned between the two uses), the same field of
// the same receiver, a fmt.Sprintf with the same format and the same
// arguments, a call of the same key-building helper with the same
// arguments (lockKey(id)), or a concatenation of such parts.
package keyid

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Same reports whether a and b evaluate to the same key. body is the
// function body containing both (used to reject variables reassigned
// between the two expressions); it may be nil when a and b are in different
// functions, in which case only values that cannot change are accepted
// (constants, fields, and variables never assigned in either function are
// left to the caller).
func Same(info *types.Info, body ast.Node, a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	if a == nil || b == nil {
		return false
	}
	if ca, cb := constValue(info, a), constValue(info, b); ca != nil || cb != nil {
		return ca != nil && cb != nil && constant.Compare(ca, token.EQL, cb)
	}
	switch a := a.(type) {
	case *ast.Ident:
		b, ok := b.(*ast.Ident)
		if !ok {
			return false
		}
		oa, ob := info.ObjectOf(a), info.ObjectOf(b)
		if oa == nil || oa != ob {
			return false
		}
		v, ok := oa.(*types.Var)
		if !ok {
			return false
		}
		return body == nil || !assignedBetween(info, body, v, a.Pos(), b.Pos())
	case *ast.SelectorExpr:
		b, ok := b.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		oa, ob := info.ObjectOf(a.Sel), info.ObjectOf(b.Sel)
		if oa == nil || oa != ob {
			return false
		}
		if sel, ok := info.Selections[a]; ok {
			if sel.Kind() != types.FieldVal {
				return false
			}
			return Same(info, body, a.X, b.X)
		}
		// Qualified identifier (pkg.Var): the same package-level variable.
		_, isVar := oa.(*types.Var)
		return isVar
	case *ast.BinaryExpr:
		b, ok := b.(*ast.BinaryExpr)
		return ok && a.Op == token.ADD && b.Op == token.ADD &&
			Same(info, body, a.X, b.X) && Same(info, body, a.Y, b.Y)
	case *ast.CallExpr:
		b, ok := b.(*ast.CallExpr)
		if !ok || len(a.Args) != len(b.Args) || a.Ellipsis.IsValid() || b.Ellipsis.IsValid() {
			return false
		}
		if !(isSprintf(info, a) && isSprintf(info, b)) && !sameBuilderArgs(info, body, a, b) {
			return false
		}
		for i := range a.Args {
			if !Same(info, body, a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	case *ast.StarExpr:
		b, ok := b.(*ast.StarExpr)
		return ok && Same(info, body, a.X, b.X)
	}
	return false
}

// sameBuilderArgs reports whether a and b call the same key-building
// helper (KeyBuilder), on the same receiver for a method, with at least
// one argument that is not a constant: lockKey(id) twice is one key, as
// fmt.Sprintf with the same arguments is; a call with only constant
// arguments (randomToken(16)) may be a new value each time. The caller
// compares the arguments.
func sameBuilderArgs(info *types.Info, body ast.Node, a, b *ast.CallExpr) bool {
	fa := KeyBuilder(info, a)
	if fa == nil || fa != KeyBuilder(info, b) {
		return false
	}
	if sa, ok := ast.Unparen(a.Fun).(*ast.SelectorExpr); ok {
		if sel, ok := info.Selections[sa]; ok {
			sb, ok := ast.Unparen(b.Fun).(*ast.SelectorExpr)
			if !ok || sel.Kind() != types.MethodVal || !Same(info, body, sa.X, sb.X) {
				return false
			}
		}
	}
	for _, arg := range a.Args {
		if constValue(info, arg) == nil {
			return true
		}
	}
	return false
}

// SameShape reports whether a and b are the same key pattern across
// functions: the same constant, the same package-level variable, the same
// field name of the same struct type, a fmt.Sprintf with the same format
// and as many arguments, or a call of the same key-building helper with the
// same template (sameBuilderCall). It is the identity used to connect an
// acquire in one function with a release in another (Lock/Unlock pairs).
func SameShape(info *types.Info, a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	if a == nil || b == nil {
		return false
	}
	if ca, cb := constValue(info, a), constValue(info, b); ca != nil || cb != nil {
		return ca != nil && cb != nil && constant.Compare(ca, token.EQL, cb)
	}
	switch a := a.(type) {
	case *ast.Ident:
		b, ok := b.(*ast.Ident)
		if !ok {
			return false
		}
		oa := info.ObjectOf(a)
		v, ok := oa.(*types.Var)
		// Only package-level variables keep their identity across functions.
		return ok && oa == info.ObjectOf(b) && v.Parent() == v.Pkg().Scope()
	case *ast.SelectorExpr:
		b, ok := b.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		oa := info.ObjectOf(a.Sel)
		if oa == nil || oa != info.ObjectOf(b.Sel) {
			return false
		}
		if sel, ok := info.Selections[a]; ok {
			return sel.Kind() == types.FieldVal
		}
		_, isVar := oa.(*types.Var)
		return isVar
	case *ast.CallExpr:
		b, ok := b.(*ast.CallExpr)
		if !ok || len(a.Args) != len(b.Args) {
			return false
		}
		if isSprintf(info, a) && isSprintf(info, b) {
			return len(a.Args) > 0 && SameShape(info, a.Args[0], b.Args[0])
		}
		return sameBuilderCall(info, a, b)
	case *ast.BinaryExpr:
		b, ok := b.(*ast.BinaryExpr)
		if !ok || a.Op != token.ADD || b.Op != token.ADD {
			return false
		}
		// "lock:" + id: the constant parts must match.
		return SameShape(info, a.X, b.X) || SameShape(info, a.Y, b.Y) && constValue(info, a.Y) != nil
	}
	return false
}

// KeyBuilder returns the function a key-building helper call calls: a
// static call, with no spread argument, of a function or method declared
// outside the standard library whose one result is a string
// (storage.GetRedisKey(lockKeyFmt, id), lockKey(id)). Its body is the
// helper's own; what it builds is the same key whenever the template it
// is given is the same, as fmt.Sprintf with the same format is (SameShape).
// Functions of the standard library are left out: their string results
// (strconv, strings, os, time) are values, not key templates.
func KeyBuilder(info *types.Info, call *ast.CallExpr) *types.Func {
	if call.Ellipsis.IsValid() {
		return nil
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil || stdPath(fn.Pkg().Path()) {
		return nil
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() != 1 {
		return nil
	}
	if b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
		return nil
	}
	return fn.Origin()
}

// stdPath reports whether path is a standard library package's: its
// first element is one of stdTop. A dotless first element alone does not
// say it: services often have module paths such as "shopsvc", and their
// key functions are key functions.
func stdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	_, ok := slices.BinarySearch(stdTop, first)
	return ok
}

// stdTop holds, sorted, the first path elements of the standard library's
// packages: the directories of GOROOT/src in Go 1.26 (cmd and vendor
// included, and the experimental arena and simd). A slice of constants
// is laid out by the linker; a map would be built at every process start,
// and go vet starts lockvet once per package.
var stdTop = []string{
	"archive", "arena", "bufio", "builtin", "bytes",
	"cmd", "cmp", "compress", "container", "context",
	"crypto", "database", "debug", "embed", "encoding",
	"errors", "expvar", "flag", "fmt", "go",
	"hash", "html", "image", "index", "internal",
	"io", "iter", "log", "maps", "math",
	"mime", "net", "os", "path", "plugin",
	"reflect", "regexp", "runtime", "simd", "slices",
	"sort", "strconv", "strings", "structs", "sync",
	"syscall", "testing", "text", "time", "unicode",
	"unique", "unsafe", "vendor", "weak",
}

// sameBuilderCall reports whether a and b call the same key-building
// helper (KeyBuilder) with the same template: each argument that is a
// constant or a package-level variable on either side is of the same
// shape on the other; the others (the id, the receiver) vary from call to
// call, as the arguments of fmt.Sprintf after the format do.
func sameBuilderCall(info *types.Info, a, b *ast.CallExpr) bool {
	fa := KeyBuilder(info, a)
	if fa == nil || fa != KeyBuilder(info, b) {
		return false
	}
	for i := range a.Args {
		if (templatePart(info, a.Args[i]) || templatePart(info, b.Args[i])) && !SameShape(info, a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}

// templatePart reports whether e, an argument of a key-building helper,
// is part of the key's template: a constant or a package-level variable.
func templatePart(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if constValue(info, e) != nil {
		return true
	}
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		if _, ok := info.Selections[x]; ok {
			return false // a field: data, like the id
		}
		id = x.Sel
	default:
		return false
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

func constValue(info *types.Info, e ast.Expr) constant.Value {
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return tv.Value
	}
	return nil
}

func isSprintf(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Sprintf"
}

// assignedBetween reports whether v is assigned (or has its address taken)
// anywhere in body between positions from and to (in either order).
func assignedBetween(info *types.Info, body ast.Node, v *types.Var, from, to token.Pos) bool {
	if from > to {
		from, to = to, from
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.End() < from || n.Pos() > to {
			return n.Pos() <= to && n.End() >= from
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && info.ObjectOf(id) == v && n.Pos() > from && n.Pos() < to {
					found = true
				}
			}
		case *ast.IncDecStmt:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && info.ObjectOf(id) == v && id.Pos() > from && id.Pos() < to {
				found = true
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && info.ObjectOf(id) == v && id.Pos() > from && id.Pos() < to {
				found = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && info.ObjectOf(id) == v && id.Pos() > from && id.Pos() < to {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// AssignedIn reports whether v is assigned, incremented, or has its address
// taken anywhere in body.
func AssignedIn(info *types.Info, body ast.Node, v *types.Var) bool {
	return assignedBetween(info, body, v, body.Pos()-1, body.End()+1)
}

// AssignedBetween reports whether v is assigned, incremented, or has its
// address taken in body between positions from and to (in either order).
func AssignedBetween(info *types.Info, body ast.Node, v *types.Var, from, to token.Pos) bool {
	return assignedBetween(info, body, v, from, to)
}

// SoleDef returns the expression the local variable v of body is defined
// with, when that is its only assignment in body and its address is never
// taken, and the number of its other uses. It returns nil when v is not a
// local of body or is written more than once.
func SoleDef(info *types.Info, body *ast.BlockStmt, v *types.Var) (ast.Expr, int) {
	if v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return nil, 0
	}
	var rhs ast.Expr
	writes, uses := 0, 0
	is := func(e ast.Expr) bool {
		x, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.ObjectOf(x) == v
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if info.Uses[n] == v {
				uses++
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if is(l) {
					writes++
					if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
						rhs = n.Rhs[i]
					} else if n.Tok != token.DEFINE {
						uses-- // counted as a use above
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v {
					writes++
					if len(n.Names) == len(n.Values) {
						rhs = n.Values[i]
					}
				}
			}
		case *ast.IncDecStmt:
			if is(n.X) {
				writes++
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				writes++
			}
		case *ast.RangeStmt:
			if n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value) {
				writes++
			}
		}
		return true
	})
	if writes != 1 {
		return nil, 0
	}
	return rhs, uses
}

// cursorAt is the cursor at n.
