package golangci

import (
	"fmt"
	"go/token"
	"slices"
	"strings"
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

// TestMerge: IDs lead, related positions are folded into the message, and
// the findings of one line become one diagnostic that names each, with
// the first fix of each.
func TestMerge(t *testing.T) {
	fset := token.NewFileSet()
	src := "line one\nline two\nline three\n"
	f := fset.AddFile("/m/p/a.go", -1, len(src))
	f.SetLinesForContent([]byte(src))
	at := func(line, col int) token.Pos { return f.LineStart(line) + token.Pos(col-1) }
	fix := func(msg string) []analysis.SuggestedFix { return []analysis.SuggestedFix{{Message: msg}} }
	ds := []analysis.Diagnostic{
		{Pos: at(3, 1), Category: "LV201", Message: "bare DEL", Related: []analysis.RelatedInformation{{Pos: at(1, 2), Message: "lock acquired here"}}},
		{Pos: at(1, 5), Category: "LV104", Message: "TTL 30 is 30ns", SuggestedFixes: fix("seconds")},
		{Pos: at(1, 2), Category: "LV105", Message: "only the error", Related: []analysis.RelatedInformation{{Pos: at(3, 1), Message: "script source"}}, SuggestedFixes: fix("check")},
	}
	got := Merge(fset, ds, func(file string) string { return strings.TrimPrefix(file, "/m/") })
	want := []string{
		"1:2 LV105: only the error; script source (p/a.go:3); and LV104 at column 5: TTL 30 is 30ns [check seconds]",
		"3:1 LV201: bare DEL; lock acquired at p/a.go:1 []",
	}
	var gotS []string
	for _, d := range got {
		p := fset.Position(d.Pos)
		var fixes []string
		for _, f := range d.SuggestedFixes {
			fixes = append(fixes, f.Message)
		}
		gotS = append(gotS, fmt.Sprintf("%d:%d %s [%s]", p.Line, p.Column, d.Message, strings.Join(fixes, " ")))
	}
	if !slices.Equal(gotS, want) {
		t.Errorf("Merge:\n\t%s\nwant\n\t%s", strings.Join(gotS, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestDropConflicts: a fix whose edits overlap a kept fix's, or insert
// other text at the offset where a kept edit starts, is dropped (its
// diagnostic stays); a fix repeating a kept fix's edits is kept.
func TestDropConflicts(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("a.go", -1, 100)
	g := fset.AddFile("b.go", -1, 100)
	fix := func(file *token.File, edits ...[3]any) analysis.SuggestedFix {
		var fx analysis.SuggestedFix
		for _, e := range edits {
			fx.TextEdits = append(fx.TextEdits, analysis.TextEdit{Pos: file.Pos(e[0].(int)), End: file.Pos(e[1].(int)), NewText: []byte(e[2].(string))})
		}
		return fx
	}
	ds := []analysis.Diagnostic{
		{Message: "insert", SuggestedFixes: []analysis.SuggestedFix{fix(f, [3]any{10, 10, "ok, "}, [3]any{30, 35, "x"})}},
		{Message: "insert elsewhere at the same offset", SuggestedFixes: []analysis.SuggestedFix{fix(f, [3]any{10, 10, "token := t()\n"})}},
		{Message: "overlap", SuggestedFixes: []analysis.SuggestedFix{fix(f, [3]any{33, 40, "y"})}},
		{Message: "same edits", SuggestedFixes: []analysis.SuggestedFix{fix(f, [3]any{30, 35, "x"}), fix(f, [3]any{10, 10, "ok, "})}},
		{Message: "adjacent", SuggestedFixes: []analysis.SuggestedFix{fix(f, [3]any{35, 36, "z"})}},
		{Message: "other file", SuggestedFixes: []analysis.SuggestedFix{fix(g, [3]any{10, 10, "token := t()\n"})}},
		{Message: "none"},
	}
	want := map[string]int{"insert": 1, "insert elsewhere at the same offset": 0, "overlap": 0, "same edits": 2, "adjacent": 1, "other file": 1, "none": 0}
	got := DropConflicts(fset, ds)
	if len(got) != len(want) {
		t.Fatalf("%d diagnostics, want %d: a diagnostic is kept when its fixes are dropped", len(got), len(want))
	}
	for _, d := range got {
		if n := len(d.SuggestedFixes); n != want[d.Message] {
			t.Errorf("%s: %d fixes kept, want %d", d.Message, n, want[d.Message])
		}
	}
}
