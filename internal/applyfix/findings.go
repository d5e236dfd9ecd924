package applyfix

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/lockvet/lockvet/internal/findings"
)

// fileFix is what -fix does to one file.
type fileFix struct {
	size int // size when loaded, to notice files changed since
	// names maps each import path of the original file to the name the
	// file uses for it, so imports that fixes leave unused are removed.
	names map[string]string
}

// Summary is what Findings did.
type Summary struct {
	Fixed     int                 // findings whose fix was applied
	Files     int                 // files changed
	Conflicts int                 // fixes skipped because they overlap others
	Left      []*findings.Finding // findings not fixed
}

// Findings applies the first suggested fix of each finding (as -fix
// does), writing the files when write is set and printing a unified diff
// to stdout otherwise (-diff); file names are relative to dir. A fix is applied whole or not at all; fixes that overlap a
// fix already taken are skipped (running -fix again picks them up).
func Findings(dir string, fs []*findings.Finding, write bool, stdout io.Writer) (*Summary, error) {
	res := &Summary{}
	files := map[string]*fileFix{}
	round := Round{}
	for _, f := range fs {
		if len(f.Diag.SuggestedFixes) == 0 {
			res.Left = append(res.Left, f)
			continue
		}
		perFile, ok := fixEdits(f, files)
		if !ok {
			res.Left = append(res.Left, f)
			continue
		}
		if !round.Fits(perFile) {
			res.Conflicts++
			res.Left = append(res.Left, f)
			continue
		}
		round.Take(perFile)
		res.Fixed++
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
			errs = append(errs, fmt.Errorf("%s changed since it was analyzed; not fixed", findings.Rel(dir, name)))
			continue
		}
		// Tidy removes the imports the applied fixes leave unused; a
		// fix's own deletion of an import (fixes.PruneImports, for hosts
		// that apply one fix at a time) is left to it, since another fix
		// applied with it may use that import again.
		edits := slices.DeleteFunc(slices.Clone(round[name]), func(e Edit) bool { return importDeletion(old, e, ff.names) })
		fixed, err := Tidy(name, Apply(old, edits), ff.names)
		if err != nil {
			errs = append(errs, fmt.Errorf("fixing %s produced invalid Go, file left unchanged (please report this): %v", findings.Rel(dir, name), err))
			continue
		}
		if bytes.Equal(old, fixed) {
			continue
		}
		res.Files++
		if !write {
			io.WriteString(stdout, UnifiedDiff(findings.Rel(dir, name), old, fixed))
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
func fixEdits(f *findings.Finding, files map[string]*fileFix) (map[string][]Edit, bool) {
	out := map[string][]Edit{}
	for _, te := range f.Diag.SuggestedFixes[0].TextEdits {
		tf, e, ok := Of(f.Pkg.Fset, te)
		if !ok {
			return nil, false
		}
		name := tf.Name()
		pkg, syntax := f.FileOf(tf)
		if files[name] == nil {
			// Only the package's own source files, and not generated
			// ones: an edit there would be lost at the next go generate.
			// A fix that changes a function's signature also edits
			// its callers in the run's other packages.
			if syntax == nil || ast.IsGenerated(syntax) || !slices.Contains(pkg.GoFiles, name) {
				return nil, false
			}
			files[name] = &fileFix{size: tf.Size(), names: ImportNames(pkg.TypesInfo, syntax)}
		}
		e = DeclInsertion(tf, syntax, e)
		for _, prev := range out[name] {
			if Conflicts(prev, e) {
				return nil, false
			}
		}
		out[name] = append(out[name], e)
	}
	return out, true
}

// CountWithoutFix counts the findings that have no suggested fix.
func CountWithoutFix(fs []*findings.Finding) int {
	n := 0
	for _, f := range fs {
		if len(f.Diag.SuggestedFixes) == 0 {
			n++
		}
	}
	return n
}

// importSpec matches the text of one import: an optional name, the
// quoted path, an optional line comment.
var importSpec = regexp.MustCompile(`^(?:[A-Za-z_.][A-Za-z0-9_]*\s+)?"([^"\n]+)"\s*(?://[^\n]*)?$`)

// importDeletion reports whether e deletes exactly one import of the
// file (names, its imports by path): the spec's lines, or an import
// declaration that holds only it.
func importDeletion(src []byte, e Edit, names map[string]string) bool {
	if e.Text != "" || e.Start >= e.End || e.End > len(src) {
		return false
	}
	t := strings.TrimSpace(string(src[e.Start:e.End]))
	if rest, ok := strings.CutPrefix(t, "import"); ok {
		t = strings.TrimSpace(rest)
		if inner, ok := strings.CutPrefix(t, "("); ok {
			if inner, ok = strings.CutSuffix(inner, ")"); ok {
				t = strings.TrimSpace(inner)
			}
		}
	}
	m := importSpec.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	_, known := names[m[1]]
	return known
}
