// Package applyfix applies suggested fixes to source files as `lockvet
// -fix` does: the first fix of each finding, whole or not at all, skipping
// a fix that overlaps one taken before it (the next round picks it up),
// applying identical edits once, then removing the imports the edits left
// unused and formatting the file. The CLI (Findings: -fix writes the
// files, -diff prints them as a unified diff, diff.go) and the proof tests
// both use it, so the proof checks the applier users run.
package applyfix

import (
	"bytes"
	"cmp"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

// Edit replaces the bytes [Start, End) of a file with Text.
type Edit struct {
	Start, End int
	Text       string
	// Decl is set on an insertion of whole declarations between the
	// top-level declarations of a file (a fix's script variable or
	// helper function): two of those at one point are both applied, in
	// the order of their text, since either order is the same program.
	Decl bool
}

func (e Edit) insertion() bool { return e.Start == e.End }

// Conflicts reports whether a and b cannot both be applied. Identical
// edits do not conflict: they are applied once.
func Conflicts(a, b Edit) bool {
	switch {
	case a == b:
		return false
	case a.insertion() && b.insertion():
		return a.Start == b.Start && !(a.Decl && b.Decl)
	case a.insertion():
		return b.Start < a.Start && a.Start < b.End
	case b.insertion():
		return a.Start < b.Start && b.Start < a.End
	}
	return max(a.Start, b.Start) < min(a.End, b.End)
}

// Of converts the text edit te into an edit of the bytes of its file. ok
// is false when te is in no file of fset, ends in another file, or ends
// before it starts.
func Of(fset *token.FileSet, te analysis.TextEdit) (file *token.File, e Edit, ok bool) {
	tf := fset.File(te.Pos)
	end := cmp.Or(te.End, te.Pos)
	if tf == nil || fset.File(end) != tf || end < te.Pos {
		return nil, Edit{}, false
	}
	return tf, Edit{Start: tf.Offset(te.Pos), End: tf.Offset(end), Text: string(te.NewText)}, true
}

// DeclInsertion marks e Decl when it inserts whole declarations (no
// imports) into file, whose token.File is tf, between two of its
// top-level declarations after the imports: outside every declaration
// and comment.
func DeclInsertion(tf *token.File, file *ast.File, e Edit) Edit {
	if !e.insertion() || e.Text == "" || file == nil || e.Start < tf.Offset(file.Name.End()) {
		return e
	}
	inside := func(n ast.Node) bool {
		return tf.Offset(n.Pos()) < e.Start && e.Start < tf.Offset(n.End())
	}
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && e.Start < tf.Offset(g.End()) {
			return e
		}
		if inside(d) {
			return e
		}
	}
	for _, c := range file.Comments {
		if inside(c) {
			return e
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+e.Text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 || len(f.Imports) > 0 {
		return e
	}
	e.Decl = true
	return e
}

// Round is one round of -fix: the edits of the fixes taken so far, by
// file name.
type Round map[string][]Edit

// Fits reports whether none of edits (by file name) conflicts with an
// edit taken.
func (r Round) Fits(edits map[string][]Edit) bool {
	for name, es := range edits {
		for _, e := range es {
			for _, taken := range r[name] {
				if Conflicts(e, taken) {
					return false
				}
			}
		}
	}
	return true
}

// Take adds edits (by file name) to the round.
func (r Round) Take(edits map[string][]Edit) {
	for name, es := range edits {
		r[name] = append(r[name], es...)
	}
}

// Apply applies non-conflicting edits to src, identical ones once.
func Apply(src []byte, edits []Edit) []byte {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b Edit) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), cmp.Compare(a.Text, b.Text))
	})
	edits = slices.Compact(edits)
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(src[last:e.Start])
		out.WriteString(e.Text)
		last = e.End
	}
	out.Write(src[last:])
	return out.Bytes()
}

// ImportNames maps the import paths of file, as type-checked with info,
// to the names the file uses for them (the declared name, or the
// package's own name), for Tidy.
func ImportNames(info *types.Info, file *ast.File) map[string]string {
	names := map[string]string{}
	for _, spec := range file.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		if pn := info.PkgNameOf(spec); pn != nil {
			names[path] = pn.Name()
		}
	}
	return names
}

// Tidy removes from src (the fixed text of filename) the imports that the
// fixes left unused, among those of the original file (names, from
// ImportNames), and formats it. It fails when src is not valid Go.
func Tidy(filename string, src []byte, names map[string]string) ([]byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	removed := false
	for _, spec := range slices.Clone(file.Imports) {
		path, err := strconv.Unquote(spec.Path.Value)
		name, known := names[path]
		if err != nil || !known || name == "_" || name == "." || used[name] {
			continue
		}
		var declared string
		if spec.Name != nil {
			declared = spec.Name.Name
		}
		removed = astutil.DeleteNamedImport(fset, file, declared, path) || removed
	}
	if !removed {
		return format.Source(src)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, file); err != nil {
		return nil, err
	}
	return format.Source(buf.Bytes())
}
