package fixes

import (
	"bytes"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// PruneImports adds to fix the edits that delete imports its edits leave
// unused: a deleted statement may hold the file's only use of fmt, and
// hosts that apply fixes without goimports (golangci-lint --fix, editors)
// would then leave code that does not compile. An import stays when the new
// text mentions its name.
func PruneImports(pass *analysis.Pass, fix *analysis.SuggestedFix) {
	byFile := map[*ast.File][]analysis.TextEdit{}
	for _, e := range fix.TextEdits {
		for _, f := range pass.Files {
			if f.FileStart <= e.Pos && e.Pos <= f.FileEnd {
				byFile[f] = append(byFile[f], e)
				break
			}
		}
	}
	for f, edits := range byFile {
		removed := func(pos token.Pos) bool {
			for _, e := range edits {
				if e.Pos <= pos && pos < e.End {
					return true
				}
			}
			return false
		}
		// Package names used inside replaced ranges, and their uses outside.
		inside := map[*types.PkgName]bool{}
		outside := map[*types.PkgName]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			pn, ok := pass.TypesInfo.Uses[id].(*types.PkgName)
			if !ok {
				return true
			}
			if removed(id.Pos()) {
				inside[pn] = true
			} else {
				outside[pn] = true
			}
			return true
		})
		for pn := range inside {
			if outside[pn] || mentions(edits, pn.Name()) {
				continue
			}
			if e, ok := deleteImport(pass, f, pn); ok {
				fix.TextEdits = append(fix.TextEdits, e)
			}
		}
	}
}

func mentions(edits []analysis.TextEdit, name string) bool {
	for _, e := range edits {
		if bytes.Contains(e.NewText, []byte(name+".")) {
			return true
		}
	}
	return false
}

// deleteImport returns the edit that removes pn's import spec (the whole
// declaration when it is the only spec).
func deleteImport(pass *analysis.Pass, f *ast.File, pn *types.PkgName) (analysis.TextEdit, bool) {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, s := range gd.Specs {
			spec := s.(*ast.ImportSpec)
			var obj types.Object
			if spec.Name != nil {
				obj = pass.TypesInfo.Defs[spec.Name]
			} else {
				obj = pass.TypesInfo.Implicits[spec]
			}
			if obj != pn {
				continue
			}
			if len(gd.Specs) == 1 {
				return deleteLines(pass, gd.Pos(), gd.End()), true
			}
			return deleteLines(pass, spec.Pos(), spec.End()), true
		}
	}
	return analysis.TextEdit{}, false
}
