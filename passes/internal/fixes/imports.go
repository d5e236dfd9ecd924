package fixes

import (
	"bytes"
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Files is a package's files in position order, with the uses of imported
// package names in each, indexed once (on first need) and shared by every
// fix in the file: pruning imports then costs the edits' size, not a walk
// of the file per fix. It is safe for concurrent use.
type Files struct {
	files []*ast.File
	uses  []importUses
}

type importUses struct {
	once  sync.Once
	uses  []pkgUse // in position order
	count map[*types.PkgName]int
}

type pkgUse struct {
	pos token.Pos
	pn  *types.PkgName
}

// NewFiles indexes files (those of one package) by position.
func NewFiles(files []*ast.File) *Files {
	sorted := files
	if !slices.IsSortedFunc(files, byStart) {
		// One allocation whatever the number of files (the cheap path
		// allocates nothing that grows with the package).
		sorted = slices.Clone(files)
		slices.SortFunc(sorted, byStart)
	}
	return &Files{files: sorted, uses: make([]importUses, len(sorted))}
}

func byStart(a, b *ast.File) int { return cmp.Compare(a.FileStart, b.FileStart) }

// Len is the number of files; File(i) is the i-th in position order.
func (x *Files) Len() int             { return len(x.files) }
func (x *Files) File(i int) *ast.File { return x.files[i] }

// Index is the index of the file that holds pos, or -1.
func (x *Files) Index(pos token.Pos) int {
	i, found := slices.BinarySearchFunc(x.files, pos, func(f *ast.File, p token.Pos) int { return cmp.Compare(f.FileStart, p) })
	if !found {
		i--
	}
	if i < 0 || pos > x.files[i].FileEnd {
		return -1
	}
	return i
}

// At is the file that holds pos, or nil.
func (x *Files) At(pos token.Pos) *ast.File {
	if i := x.Index(pos); i >= 0 {
		return x.files[i]
	}
	return nil
}

func (x *Files) importUses(info *types.Info, i int) *importUses {
	u := &x.uses[i]
	u.once.Do(func() {
		u.count = map[*types.PkgName]int{}
		// A package name is used only as the X of a selector (pkg.Name).
		ast.Inspect(x.files[i], func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					if pn, ok := info.Uses[id].(*types.PkgName); ok {
						u.uses = append(u.uses, pkgUse{id.Pos(), pn})
						u.count[pn]++
					}
				}
			}
			return true
		})
	})
	return u
}

// PruneImports adds to fix the edits that delete imports its edits leave
// unused: a deleted statement may hold the file's only use of fmt, and
// hosts that apply fixes without goimports (golangci-lint --fix, editors)
// would then leave code that does not compile. An import stays when the new
// text mentions its name. files are the pass's files.
func PruneImports(pass *analysis.Pass, fix *analysis.SuggestedFix, files *Files) {
	byFile := map[int][]analysis.TextEdit{}
	for _, e := range fix.TextEdits {
		if i := files.Index(e.Pos); i >= 0 {
			byFile[i] = append(byFile[i], e)
		}
	}
	for _, i := range slices.Sorted(maps.Keys(byFile)) {
		edits := byFile[i]
		u := files.importUses(pass.TypesInfo, i)
		// The uses of package names inside replaced ranges (each once,
		// however many edits cover it), per package name.
		inside := map[*types.PkgName]int{}
		var order []*types.PkgName
		seen := map[int]bool{}
		for _, e := range edits {
			lo, _ := slices.BinarySearchFunc(u.uses, e.Pos, func(p pkgUse, pos token.Pos) int { return cmp.Compare(p.pos, pos) })
			for j := lo; j < len(u.uses) && u.uses[j].pos < e.End; j++ {
				if seen[j] {
					continue
				}
				seen[j] = true
				pn := u.uses[j].pn
				if inside[pn] == 0 {
					order = append(order, pn)
				}
				inside[pn]++
			}
		}
		for _, pn := range order {
			if inside[pn] < u.count[pn] || mentions(edits, pn.Name()) {
				continue // still used outside, or by the new text
			}
			if e, ok := deleteImport(pass, files.files[i], pn, edits); ok {
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
// declaration when it is the only spec). An insertion of the fix's edits
// at the end of the spec (an import added after it: fixes.Import) keeps
// the line break after it, so that the two do not overlap; ok is false
// when another edit falls inside the spec's lines.
func deleteImport(pass *analysis.Pass, f *ast.File, pn *types.PkgName, edits []analysis.TextEdit) (analysis.TextEdit, bool) {
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
			del, end := deleteLines(pass, spec.Pos(), spec.End()), spec.End()
			if len(gd.Specs) == 1 {
				del, end = deleteLines(pass, gd.Pos(), gd.End()), gd.End()
			}
			for _, e := range edits {
				switch {
				case e.Pos <= del.Pos && e.End <= del.Pos, e.Pos >= del.End:
				case e.Pos == end && e.End <= e.Pos:
					del.End = end
				default:
					return analysis.TextEdit{}, false
				}
			}
			return del, true
		}
	}
	return analysis.TextEdit{}, false
}
