package driver

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/internal/lvconfig"
)

// SetModule records the loaded root packages in m, the analyzers' view
// of the module. When a fix first asks (one that changes an exported
// function's signature and must find every call), the go command lists
// the main module's packages, and those the patterns did not name are
// loaded then, into the same FileSet, with their test files; so are the
// test files of the named packages when tests were left out (-test=false):
// a test that calls the function must be edited too. Nothing is loaded
// when no fix asks.
func (l *Loaded) SetModule(m *lvconfig.Module, dir string, tests bool) {
	var pkgs []lvconfig.ModulePackage
	loaded := map[string]bool{}
	files := map[string]bool{}
	var fset *token.FileSet
	for _, p := range l.Roots {
		if p.Types == nil || p.TypesInfo == nil || p.IllTyped {
			continue
		}
		pkgs = append(pkgs, lvconfig.ModulePackage{Fset: p.Fset, Types: p.Types, Info: p.TypesInfo, Files: p.Syntax})
		loaded[p.PkgPath] = true
		fset = p.Fset
		for _, f := range p.Syntax {
			files[p.Fset.File(f.Pos()).Name()] = true
		}
	}
	var modDir string
	for _, p := range l.Roots {
		if p.Module != nil && p.Module.Main && p.Module.Dir != "" {
			modDir = p.Module.Dir
			break
		}
	}
	m.LeaveTestsOut(!tests)
	m.Set(pkgs, func() ([]lvconfig.ModulePackage, bool, error) {
		if modDir == "" || fset == nil {
			return nil, false, nil
		}
		all, err := packages.Load(&packages.Config{Mode: packages.NeedName, Dir: modDir}, "./...")
		if err != nil {
			return nil, false, fmt.Errorf("listing the packages of %s: %v", modDir, err)
		}
		if len(all) == 0 {
			return nil, false, nil
		}
		var want []string
		for _, p := range all {
			if !loaded[p.PkgPath] || !tests {
				want = append(want, p.PkgPath)
			}
		}
		if len(want) == 0 {
			return excluded(fset, l.Roots), true, nil
		}
		more, rest, err := loadRest(modDir, fset, want, files)
		if err != nil {
			return nil, false, err
		}
		l.restMu.Lock()
		l.rest = rest
		l.restMu.Unlock()
		return append(more, excluded(fset, l.Roots, rest)...), true, nil
	})
}

// excluded parses, into fset, the Go files of pkgs that a build
// constraint leaves out of this build (IgnoredFiles: a file for another
// GOOS, a test behind //go:build integration), one syntax-only package
// per package that has any, marked Excluded. A file that does not parse
// is left out: the go command would not build it either.
func excluded(fset *token.FileSet, pkgs ...[]*packages.Package) []lvconfig.ModulePackage {
	seen := map[string]bool{}
	var out []lvconfig.ModulePackage
	for _, list := range pkgs {
		for _, p := range list {
			var syn []*ast.File
			for _, name := range p.IgnoredFiles {
				if !strings.HasSuffix(name, ".go") || seen[name] {
					continue
				}
				seen[name] = true
				if f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution); err == nil {
					syn = append(syn, f)
				}
			}
			if len(syn) == 0 {
				continue
			}
			tp := p.Types
			if tp == nil {
				tp = types.NewPackage(p.PkgPath, p.Name)
			}
			out = append(out, lvconfig.ModulePackage{Fset: fset, Types: tp, Files: syn, Broken: true, Excluded: true})
		}
	}
	return out
}

// loadRest loads the packages at paths with their tests into fset, and
// returns each (test variant, external test package) with the files
// that are not among files (those already loaded); a package left with
// none is left out. A package that does not type-check (a test file
// that does not compile) is returned Broken, with only its files that
// no package that loads has. The packages that load are returned too,
// as go/packages gave them.
func loadRest(dir string, fset *token.FileSet, paths []string, files map[string]bool) ([]lvconfig.ModulePackage, []*packages.Package, error) {
	cfg := &packages.Config{Mode: loadMode, Dir: dir, Tests: true, Fset: fset}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, nil, fmt.Errorf("loading the rest of the module %s: %v", dir, err)
	}
	seen := maps.Clone(files)
	var out, broken []lvconfig.ModulePackage
	var good []*packages.Package
	roots := selectRoots(pkgs)
	for _, p := range roots {
		if broken := len(p.Errors) > 0 || p.IllTyped || p.Types == nil || p.TypesInfo == nil; broken {
			continue
		}
		syn := slices.DeleteFunc(slices.Clone(p.Syntax), func(f *ast.File) bool { return files[fset.File(f.Pos()).Name()] })
		for _, f := range p.Syntax {
			seen[fset.File(f.Pos()).Name()] = true
		}
		if len(syn) > 0 {
			out = append(out, lvconfig.ModulePackage{Fset: fset, Types: p.Types, Info: p.TypesInfo, Files: syn})
			good = append(good, p)
		}
	}
	for _, p := range roots {
		if !(len(p.Errors) > 0 || p.IllTyped || p.Types == nil || p.TypesInfo == nil) {
			continue
		}
		if len(p.Syntax) < len(p.CompiledGoFiles) {
			return nil, nil, fmt.Errorf("loading the rest of the module: %s: %s", p.PkgPath, firstError(dir, p.Errors))
		}
		syn := slices.DeleteFunc(slices.Clone(p.Syntax), func(f *ast.File) bool { return seen[fset.File(f.Pos()).Name()] })
		if len(syn) > 0 {
			broken = append(broken, lvconfig.ModulePackage{Fset: fset, Types: p.Types, Info: p.TypesInfo, Files: syn, Broken: true})
		}
	}
	return append(out, broken...), good, nil
}
