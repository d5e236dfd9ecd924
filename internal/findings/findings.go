// Package findings is the one finding type of the lockvet command: what
// the driver (internal/driver) produces from an analysis run, and what the
// output formats (internal/output), the gates (internal/gates) and -fix
// (internal/applyfix) read. A finding's identity, what it is apart from
// where it is (identity.go), keys the baseline and the fingerprints of
// SARIF and Code Climate.
package findings

import (
	"cmp"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// Finding is one diagnostic of one analyzer on one package.
type Finding struct {
	Pkg      *packages.Package
	Analyzer *analysis.Analyzer
	Diag     analysis.Diagnostic
	Posn     token.Position
	Reason   string // for a suppressed finding, the directive's reason
	// Module are the other packages analyzed in the same run (shared by
	// its findings): a fix may edit their files too, when it changes a
	// function that they call.
	Module []*packages.Package
}

// Rule is the finding's rule ID, or the analyzer name when the diagnostic
// carries no category.
func (f *Finding) Rule() string { return cmp.Or(f.Diag.Category, f.Analyzer.Name) }

// Result is what an analysis run produced.
type Result struct {
	Findings   []*Finding // deduplicated, sorted by position (Compare)
	Suppressed []*Finding // what lockvet:ignore directives suppressed, sorted
	Errors     []string   // one line per broken package or failed analysis
	Packages   int        // root packages analyzed (test variants count once)
	Broken     int        // root packages that failed to load or type-check
	// ActionErrs are per-package errors for the JSON tree: package ID →
	// analyzer name → message.
	ActionErrs map[string]map[string]string

	mu      sync.Mutex
	sources map[string][]byte // file contents, read on demand
}

// Compare orders findings by position, then rule and message.
func Compare(a, b *Finding) int {
	return cmp.Or(
		cmp.Compare(a.Posn.Filename, b.Posn.Filename),
		cmp.Compare(a.Posn.Line, b.Posn.Line),
		cmp.Compare(a.Posn.Column, b.Posn.Column),
		cmp.Compare(a.Rule(), b.Rule()),
		cmp.Compare(a.Diag.Message, b.Diag.Message))
}

// Source is the content of a file, read once per result; nil when it
// cannot be read.
func (res *Result) Source(name string) []byte {
	res.mu.Lock()
	defer res.mu.Unlock()
	if src, ok := res.sources[name]; ok {
		return src
	}
	if res.sources == nil {
		res.sources = map[string][]byte{}
	}
	src, _ := os.ReadFile(name)
	res.sources[name] = src
	return src
}

// FileOf is the package of the run, the finding's first, that holds the
// file tf, and that file's syntax; nil when no package holds it.
func (f *Finding) FileOf(tf *token.File) (*packages.Package, *ast.File) {
	if file := f.Syntax(tf); file != nil {
		return f.Pkg, file
	}
	for _, p := range f.Module {
		if p.Fset != f.Pkg.Fset {
			continue
		}
		for _, file := range p.Syntax {
			if p.Fset.File(file.FileStart) == tf {
				return p, file
			}
		}
	}
	return nil, nil
}

// Syntax is the syntax of the finding's package's file tf, or nil.
func (f *Finding) Syntax(tf *token.File) *ast.File {
	for _, file := range f.Pkg.Syntax {
		if f.Pkg.Fset.File(file.FileStart) == tf {
			return file
		}
	}
	return nil
}

// EnclosingDecl is the top-level declaration of f's package containing
// pos, or nil.
func (f *Finding) EnclosingDecl(pos token.Pos) ast.Decl {
	tf := f.Pkg.Fset.File(pos)
	if tf == nil {
		return nil
	}
	file := f.Syntax(tf)
	if file == nil {
		return nil
	}
	i, found := slices.BinarySearchFunc(file.Decls, pos, func(d ast.Decl, p token.Pos) int {
		switch {
		case d.End() <= p:
			return -1
		case d.Pos() > p:
			return 1
		}
		return 0
	})
	if !found {
		return nil
	}
	return file.Decls[i]
}

// Rel is filename relative to dir when it lies below dir, else filename:
// how the command names files to the user.
func Rel(dir, filename string) string {
	if rel, err := filepath.Rel(dir, filename); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return filename
}
