package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

// edit replaces the bytes [start, end) of a file with text.
type edit struct {
	start, end int
	text       string
}

func (e edit) insertion() bool { return e.start == e.end }

// conflicts reports whether a and b cannot both be applied. Identical
// edits do not conflict: they are applied once.
func conflicts(a, b edit) bool {
	switch {
	case a == b:
		return false
	case a.insertion() && b.insertion():
		return a.start == b.start
	case a.insertion():
		return b.start < a.start && a.start < b.end
	case b.insertion():
		return a.start < b.start && b.start < a.end
	}
	return max(a.start, b.start) < min(a.end, b.end)
}

// applyEdits applies non-conflicting edits to src.
func applyEdits(src []byte, edits []edit) []byte {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b edit) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end))
	})
	edits = slices.Compact(edits)
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(src[last:])
	return out.Bytes()
}

// fileFix is what -fix does to one file.
type fileFix struct {
	size  int // size when loaded, to notice files changed since
	edits []edit
	// names maps each import path of the original file to the name the
	// file uses for it, so imports that fixes leave unused are removed.
	names map[string]string
}

// fixResult summarizes -fix.
type fixResult struct {
	fixed     int        // findings whose fix was applied
	files     int        // files changed
	conflicts int        // fixes skipped because they overlap others
	left      []*finding // findings not fixed
}

// applyFixes applies the first suggested fix of each finding, writing the
// files when write is set and printing a unified diff to stdout
// otherwise. A fix is applied whole or not at all; fixes that overlap a
// fix already taken are skipped (running -fix again picks them up).
func applyFixes(dir string, findings []*finding, write bool, stdout io.Writer) (*fixResult, error) {
	res := &fixResult{}
	files := map[string]*fileFix{}
	for _, f := range findings {
		if len(f.diag.SuggestedFixes) == 0 {
			res.left = append(res.left, f)
			continue
		}
		perFile, ok := fixEdits(f, files)
		if !ok {
			res.left = append(res.left, f)
			continue
		}
		if !compatible(perFile, files) {
			res.conflicts++
			res.left = append(res.left, f)
			continue
		}
		for name, es := range perFile {
			files[name].edits = append(files[name].edits, es...)
		}
		res.fixed++
	}

	var errs []error
	for _, name := range slices.Sorted(maps.Keys(files)) {
		ff := files[name]
		if len(ff.edits) == 0 {
			continue
		}
		old, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(old) != ff.size {
			errs = append(errs, fmt.Errorf("%s changed since it was analyzed; not fixed", relPath(dir, name)))
			continue
		}
		fixed, err := tidy(name, applyEdits(old, ff.edits), ff.names)
		if err != nil {
			errs = append(errs, fmt.Errorf("fixing %s produced invalid Go, file left unchanged (please report this): %v", relPath(dir, name), err))
			continue
		}
		if bytes.Equal(old, fixed) {
			continue
		}
		res.files++
		if !write {
			io.WriteString(stdout, unifiedDiff(relPath(dir, name), old, fixed))
			continue
		}
		fi, err := os.Stat(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.WriteFile(name, fixed, fi.Mode().Perm()); err != nil {
			errs = append(errs, err)
		}
	}
	return res, errors.Join(errs...)
}

// fixEdits converts the finding's first fix to per-file byte edits,
// registering the files it touches. ok is false when the fix is not
// usable: an edit outside the package's source files or in a generated
// file, or edits overlapping each other.
func fixEdits(f *finding, files map[string]*fileFix) (map[string][]edit, bool) {
	fset := f.pkg.Fset
	out := map[string][]edit{}
	for _, te := range f.diag.SuggestedFixes[0].TextEdits {
		tf := fset.File(te.Pos)
		end := cmp.Or(te.End, te.Pos)
		if tf == nil || fset.File(end) != tf || end < te.Pos {
			return nil, false
		}
		name := tf.Name()
		if files[name] == nil {
			// Only the package's own source files, and not generated
			// ones: an edit there would be lost at the next go generate.
			syntax := fileSyntax(f, tf)
			if syntax == nil || ast.IsGenerated(syntax) || !slices.Contains(f.pkg.GoFiles, name) {
				return nil, false
			}
			files[name] = &fileFix{size: tf.Size(), names: importNames(f, syntax)}
		}
		e := edit{tf.Offset(te.Pos), tf.Offset(end), string(te.NewText)}
		for _, prev := range out[name] {
			if conflicts(prev, e) {
				return nil, false
			}
		}
		out[name] = append(out[name], e)
	}
	return out, true
}

// compatible reports whether edits conflict with none already taken.
func compatible(edits map[string][]edit, files map[string]*fileFix) bool {
	for name, es := range edits {
		for _, e := range es {
			for _, taken := range files[name].edits {
				if conflicts(e, taken) {
					return false
				}
			}
		}
	}
	return true
}

func fileSyntax(f *finding, tf *token.File) *ast.File {
	for _, file := range f.pkg.Syntax {
		if f.pkg.Fset.File(file.FileStart) == tf {
			return file
		}
	}
	return nil
}

// importNames maps the file's import paths to the names it uses for them
// (the declared name, or the package's own name).
func importNames(f *finding, file *ast.File) map[string]string {
	names := map[string]string{}
	for _, spec := range file.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			continue
		}
		if pn := f.pkg.TypesInfo.PkgNameOf(spec); pn != nil {
			names[path] = pn.Name()
		}
	}
	return names
}

// tidy removes the imports that the fixes left unused and gofmts src.
func tidy(filename string, src []byte, names map[string]string) ([]byte, error) {
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

func countWithoutFix(findings []*finding) int {
	n := 0
	for _, f := range findings {
		if len(f.diag.SuggestedFixes) == 0 {
			n++
		}
	}
	return n
}
