package output

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/findings"
)

// The JSON output has the shape go vet -json and the x/tools drivers
// print: package ID → analyzer name → list of diagnostics, or an error.

type jsonTextEdit struct {
	Filename string `json:"filename"`
	Start    int    `json:"start"` // byte offsets, half-open
	End      int    `json:"end"`
	New      string `json:"new"`
}

type jsonSuggestedFix struct {
	Message string         `json:"message"`
	Edits   []jsonTextEdit `json:"edits"`
}

type jsonRelated struct {
	Posn    string `json:"posn"` // file:line:col
	End     string `json:"end"`
	Message string `json:"message"`
}

type jsonDiagnostic struct {
	Category       string             `json:"category,omitempty"`
	Posn           string             `json:"posn"`
	End            string             `json:"end"`
	Message        string             `json:"message"`
	SuggestedFixes []jsonSuggestedFix `json:"suggested_fixes,omitempty"`
	Related        []jsonRelated      `json:"related,omitempty"`
}

type jsonError struct {
	Err string `json:"error"`
}

// JSON prints the findings and per-package errors of res.
func JSON(w io.Writer, res *findings.Result) error {
	tree := map[string]map[string]any{}
	add := func(id, name string, v any) {
		m := tree[id]
		if m == nil {
			m = map[string]any{}
			tree[id] = m
		}
		m[name] = v
	}
	for id, m := range res.ActionErrs {
		for name, msg := range m {
			add(id, name, jsonError{msg})
		}
	}
	for _, f := range res.Findings {
		fset := f.Pkg.Fset
		d := jsonDiagnostic{
			Category: f.Diag.Category,
			Posn:     fset.Position(f.Diag.Pos).String(),
			End:      fset.Position(cmp.Or(f.Diag.End, f.Diag.Pos)).String(),
			Message:  f.Diag.Message,
		}
		for _, fix := range f.Diag.SuggestedFixes {
			if !editsOwnFiles(f, fix) {
				continue
			}
			jf := jsonSuggestedFix{Message: fix.Message}
			for _, e := range orderedEdits(fset, fix.TextEdits) {
				// Offsets are in the file as it is on disk: a //line
				// directive changes the reported position, not the file
				// the bytes are in.
				start := fset.PositionFor(e.Pos, false)
				jf.Edits = append(jf.Edits, jsonTextEdit{
					Filename: start.Filename,
					Start:    start.Offset,
					End:      fset.PositionFor(cmp.Or(e.End, e.Pos), false).Offset,
					New:      string(e.NewText),
				})
			}
			d.SuggestedFixes = append(d.SuggestedFixes, jf)
		}
		for _, r := range f.Diag.Related {
			d.Related = append(d.Related, jsonRelated{
				Posn:    fset.Position(r.Pos).String(),
				End:     fset.Position(cmp.Or(r.End, r.Pos)).String(),
				Message: r.Message,
			})
		}
		list, _ := tree[f.Pkg.ID][f.Analyzer.Name].([]jsonDiagnostic)
		add(f.Pkg.ID, f.Analyzer.Name, append(list, d))
	}
	return writeJSON(w, tree)
}

// orderedEdits are a fix's edits by file name, then offset (stable:
// insertions at one place keep their order). A fix that spans packages
// comes with its edits ordered by token.Pos, and which file has the lower
// positions depends on the order go/packages happened to parse them in;
// printed as they come, one fix would read differently from run to run.
func orderedEdits(fset *token.FileSet, edits []analysis.TextEdit) []analysis.TextEdit {
	out := slices.Clone(edits)
	slices.SortStableFunc(out, func(a, b analysis.TextEdit) int {
		pa, pb := fset.PositionFor(a.Pos, false), fset.PositionFor(b.Pos, false)
		return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
	})
	return out
}

// writeJSON prints tree as go vet -json does: tab-indented, one newline.
func writeJSON(w io.Writer, tree any) error {
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// editsOwnFiles reports whether every edit of fix is in one of the
// package's own source files. A finding in a file that cgo translated has
// its syntax, and so its edits, in the go command's cache: such a fix is
// not offered (as with -fix).
func editsOwnFiles(f *findings.Finding, fix analysis.SuggestedFix) bool {
	for _, e := range fix.TextEdits {
		tf := f.Pkg.Fset.File(e.Pos)
		if tf == nil {
			return false
		}
		// A fix that changes a function's signature also edits its
		// callers in the run's other packages.
		if pkg, _ := f.FileOf(tf); pkg == nil || !slices.Contains(pkg.GoFiles, tf.Name()) {
			return false
		}
	}
	return true
}

// JSONLoadError prints, in go vet -json's tree, the error of a run whose
// packages could not be loaded at all: under the patterns, as a package's
// error.
func JSONLoadError(w io.Writer, patterns []string, msg string) error {
	return writeJSON(w, map[string]map[string]jsonError{strings.Join(patterns, " "): {"lockvet": {msg}}})
}
