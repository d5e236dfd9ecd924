package fixes

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Import returns the name under which code at pos in file can refer to the
// package at path (whose package name is name), and the edit that imports
// it when the file does not yet: an existing import is used when its name
// means the package at pos; otherwise the package is imported under name,
// in the last import declaration (a standard library package with the
// leading group of standard library imports, any other in a group of its
// own at the end), in a declaration after the last one, or after the
// package clause, with name written in the import when it is not the
// path's last element (or a major version suffix such as v9). It fails when name is taken at
// pos (shadowed by a local, or declared in the file or the package).
func Import(pass *analysis.Pass, file *ast.File, path, name string, pos token.Pos) (string, []analysis.TextEdit, bool) {
	info := pass.TypesInfo
	for _, spec := range file.Imports {
		if p, err := strconv.Unquote(spec.Path.Value); err != nil || p != path {
			continue
		}
		pn := info.PkgNameOf(spec)
		if pn == nil || pn.Name() == "_" || pn.Name() == "." {
			continue
		}
		if LookupAt(pass, file, pn.Name(), pos) == types.Object(pn) {
			return pn.Name(), nil, true
		}
	}
	if LookupAt(pass, file, name, pos) != nil || pass.Pkg.Scope().Lookup(name) != nil {
		return "", nil, false
	}
	if s := info.Scopes[file]; s != nil && s.Lookup(name) != nil {
		return "", nil, false
	}
	spec := strconv.Quote(path)
	if base := path[strings.LastIndex(path, "/")+1:]; name != base && !majorVersion(base) {
		spec = name + " " + spec
	}
	var last *ast.GenDecl
	for _, d := range file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			last = gd
		}
	}
	var edit analysis.TextEdit
	switch {
	case last == nil:
		at := file.Name.End()
		edit = analysis.TextEdit{Pos: at, End: at, NewText: []byte("\n\nimport " + spec)}
	case last.Lparen.IsValid() && stdlib(path):
		// Into the leading group of standard library imports (gofmt
		// sorts it), or a group of its own before the others.
		at, text := last.Lparen+1, "\n\t"+spec+"\n"
		for _, s := range last.Specs {
			is := s.(*ast.ImportSpec)
			p, err := strconv.Unquote(is.Path.Value)
			if err != nil || !stdlib(p) || at > last.Lparen+1 && pass.Fset.Position(is.Pos()).Line > pass.Fset.Position(at).Line+1 {
				break
			}
			at, text = is.End(), "\n\t"+spec
		}
		edit = analysis.TextEdit{Pos: at, End: at, NewText: []byte(text)}
	case last.Lparen.IsValid():
		edit = analysis.TextEdit{Pos: last.Rparen, End: last.Rparen, NewText: []byte("\n\t" + spec + "\n")}
	default:
		edit = analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte("\nimport " + spec)}
	}
	return name, []analysis.TextEdit{edit}, true
}

// ScopeAt is the innermost scope at pos, or nil when pos is in no file.
// It starts from the scope of file (the file holding pos, or nil when that
// is not known), which spares the package scope's search through every
// file: asked per finding or fix, that search grows with the package.
func ScopeAt(pass *analysis.Pass, file *ast.File, pos token.Pos) *types.Scope {
	if fs := pass.TypesInfo.Scopes[file]; file != nil && fs != nil && fs.Contains(pos) {
		return fs.Innermost(pos)
	}
	return pass.Pkg.Scope().Innermost(pos)
}

// LookupAt resolves name at pos (in file, as for ScopeAt).
func LookupAt(pass *analysis.Pass, file *ast.File, name string, pos token.Pos) types.Object {
	s := ScopeAt(pass, file, pos)
	if s == nil {
		s = pass.Pkg.Scope()
	}
	_, obj := s.LookupParent(name, pos)
	return obj
}

// stdlib reports whether path is a standard library package: no dot in its
// first element.
func stdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// majorVersion reports whether elem is a module path's major version
// suffix: v2, v9, v10.
func majorVersion(elem string) bool {
	if len(elem) < 2 || elem[0] != 'v' {
		return false
	}
	for _, r := range elem[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
