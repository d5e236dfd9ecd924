package golangci

import (
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestFirstFixOnly: golangci-lint --fix applies every suggested fix of an
// issue; the plugin passes on only the first (safest) one.
func TestFirstFixOnly(t *testing.T) {
	fix := func(msg string) analysis.SuggestedFix {
		return analysis.SuggestedFix{Message: msg, TextEdits: []analysis.TextEdit{{Pos: 1, End: 2, NewText: []byte(msg)}}}
	}
	orig := &analysis.Analyzer{
		Name: "fake",
		Doc:  "fake: reports with alternative fixes",
		Run: func(pass *analysis.Pass) (any, error) {
			pass.Report(analysis.Diagnostic{Pos: 1, Message: "two", SuggestedFixes: []analysis.SuggestedFix{fix("a"), fix("b")}})
			pass.Reportf(1, "none")
			pass.Report(analysis.Diagnostic{Pos: 1, Message: "one", SuggestedFixes: []analysis.SuggestedFix{fix("c")}})
			return "result", nil
		},
	}
	w := firstFixOnly(orig)
	if w == orig || w.Name != orig.Name || w.Doc != orig.Doc {
		t.Fatalf("wrapper must be a new analyzer with the same identity fields")
	}
	var got []analysis.Diagnostic
	res, err := w.Run(&analysis.Pass{Analyzer: w, Report: func(d analysis.Diagnostic) { got = append(got, d) }})
	if err != nil || res != "result" {
		t.Fatalf("Run = %v, %v; want the wrapped analyzer's result", res, err)
	}
	want := map[string][]string{"two": {"a"}, "none": nil, "one": {"c"}}
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics, want %d", len(got), len(want))
	}
	for _, d := range got {
		var msgs []string
		for _, f := range d.SuggestedFixes {
			msgs = append(msgs, f.Message)
		}
		if w := want[d.Message]; len(msgs) != len(w) || len(w) > 0 && msgs[0] != w[0] {
			t.Errorf("%s: fixes %v, want %v", d.Message, msgs, w)
		}
	}
}
