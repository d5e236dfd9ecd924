package keyid

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
)

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

// Resolve is e with a local variable of body that is written once
// replaced by the expression it is defined with, up to MaxLocalDepth
// locals deep: the expression whose words (a name that says "lock")
// count across functions, as the inline key's would. Identity is the
// forms'; this is for reading names.
func Resolve(info *types.Info, body *ast.BlockStmt, e ast.Expr) ast.Expr {
	if body == nil {
		return e
	}
	for range MaxLocalDepth {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return e
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok {
			return e
		}
		rhs, _ := astx.SoleDef(info, body, v)
		if rhs == nil {
			return e
		}
		e = rhs
	}
	return e
}
