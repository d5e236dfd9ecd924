package redisops

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// The fixes that declare a package-level script variable (unlockScript,
// renewScript) look for an existing one, a file to host a new one and a
// free name, all questions about the whole package. Asked by scanning the
// package's files per fix, a package with many fixes costs (fixes) x (its
// size). pkgScan answers them from one scan of the package, shared by
// every fix and check through Result.Shared.

type pkgScan struct {
	files  *fixes.Files // by position
	byName []*ast.File  // by file name
	// vars are the package-level `var x = f(…)` specs, by the path of f's
	// package, in file-name then source order.
	vars map[string][]pkgVar
	// scopeNames are the names declared in some file's scope (imports).
	scopeNames map[string]bool
}

type pkgVar struct {
	file *ast.File
	id   *ast.Ident
	call *ast.CallExpr
	fn   *types.Func
}

type pkgScanKey struct{}

// shared is r.Shared, or build() when there is no result (an Op made
// outside redisops' run).
func shared(r *Result, key any, build func() any) any {
	if r == nil {
		return build()
	}
	return r.Shared(key, build)
}

func scanOf(pass *analysis.Pass, r *Result) *pkgScan {
	return shared(r, pkgScanKey{}, func() any { return newPkgScan(pass, r) }).(*pkgScan)
}

func newPkgScan(pass *analysis.Pass, r *Result) *pkgScan {
	info := pass.TypesInfo
	x := &pkgScan{vars: map[string][]pkgVar{}, scopeNames: map[string]bool{}}
	if r != nil {
		x.files = r.FileIndex(pass)
	} else {
		x.files = fixes.NewFiles(pass.Files)
	}
	x.byName = slices.Clone(pass.Files)
	slices.SortFunc(x.byName, func(a, b *ast.File) int {
		return strings.Compare(pass.Fset.File(a.Pos()).Name(), pass.Fset.File(b.Pos()).Name())
	})
	for _, f := range x.byName {
		if fs := info.Scopes[f]; fs != nil {
			for _, n := range fs.Names() {
				x.scopeNames[n] = true
			}
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Names) != len(vs.Values) {
					continue
				}
				for i, id := range vs.Names {
					call, ok := ast.Unparen(vs.Values[i]).(*ast.CallExpr)
					if !ok {
						continue
					}
					fn, ok := typeutil.Callee(info, call).(*types.Func)
					if !ok || fn.Pkg() == nil {
						continue
					}
					x.vars[fn.Pkg().Path()] = append(x.vars[fn.Pkg().Path()], pkgVar{f, id, call, fn})
				}
			}
		}
	}
	return x
}

// taken reports whether name is declared at package level or in a file
// scope.
func (x *pkgScan) taken(pass *analysis.Pass, name string) bool {
	return pass.Pkg.Scope().Lookup(name) != nil || x.scopeNames[name]
}

type fileIndexKey struct{}

// FileIndex is the package's files indexed by position, built once and
// shared by every check.
func (r *Result) FileIndex(pass *analysis.Pass) *fixes.Files {
	return r.Shared(fileIndexKey{}, func() any { return fixes.NewFiles(pass.Files) }).(*fixes.Files)
}

// fileAt is the file holding pos, or nil.
func fileAt(pass *analysis.Pass, r *Result, pos token.Pos) *ast.File {
	if r == nil {
		for _, f := range pass.Files {
			if f.FileStart <= pos && pos <= f.FileEnd {
				return f
			}
		}
		return nil
	}
	return r.FileIndex(pass).At(pos)
}

// resolveAt resolves name at pos, in file (the file holding pos, or nil
// when it is not known).
func resolveAt(pass *analysis.Pass, file *ast.File, name string, pos token.Pos) types.Object {
	return fixes.LookupAt(pass, file, name, pos)
}
