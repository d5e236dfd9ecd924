package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/lockvet/lockvet/internal/applyfix"
)

// fileFix is what -fix does to one file.
type fileFix struct {
	size int // size when loaded, to notice files changed since
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
	round := applyfix.Round{}
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
		if !round.Fits(perFile) {
			res.conflicts++
			res.left = append(res.left, f)
			continue
		}
		round.Take(perFile)
		res.fixed++
	}

	var errs []error
	for _, name := range slices.Sorted(maps.Keys(files)) {
		ff := files[name]
		if len(round[name]) == 0 {
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
		fixed, err := applyfix.Tidy(name, applyfix.Apply(old, round[name]), ff.names)
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
func fixEdits(f *finding, files map[string]*fileFix) (map[string][]applyfix.Edit, bool) {
	out := map[string][]applyfix.Edit{}
	for _, te := range f.diag.SuggestedFixes[0].TextEdits {
		tf, e, ok := applyfix.Of(f.pkg.Fset, te)
		if !ok {
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
			files[name] = &fileFix{size: tf.Size(), names: applyfix.ImportNames(f.pkg.TypesInfo, syntax)}
		}
		for _, prev := range out[name] {
			if applyfix.Conflicts(prev, e) {
				return nil, false
			}
		}
		out[name] = append(out[name], e)
	}
	return out, true
}

func fileSyntax(f *finding, tf *token.File) *ast.File {
	for _, file := range f.pkg.Syntax {
		if f.pkg.Fset.File(file.FileStart) == tf {
			return file
		}
	}
	return nil
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
