package applyfix_test

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/applyfix"
	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/findings"
)

func TestMain(m *testing.M) { clitest.Main(m) }

func TestFindings(t *testing.T) {
	const src = `package p

import (
	"fmt"
	"strings"
)

func a() string { return fmt.Sprint(1) }

func b() string { return strings.ToUpper("x") }

func c() int { return   1 }
`
	dir, pkg := clitest.LoadTemp(t, map[string]string{"p.go": src})
	tf := pkg.Fset.File(pkg.Syntax[0].FileStart)
	// at finds the n-th (0-based) occurrence of s and returns its range.
	at := func(s string, n int) (token.Pos, token.Pos) {
		off := -1
		for range n + 1 {
			off += 1 + strings.Index(src[off+1:], s)
		}
		return tf.Pos(off), tf.Pos(off + len(s))
	}
	fix := func(text string, edits ...analysis.TextEdit) []analysis.SuggestedFix {
		return []analysis.SuggestedFix{{Message: text, TextEdits: edits}}
	}
	edit := func(s string, n int, text string) analysis.TextEdit {
		pos, end := at(s, n)
		return analysis.TextEdit{Pos: pos, End: end, NewText: []byte(text)}
	}
	find := func(msg string, fixes []analysis.SuggestedFix) *findings.Finding {
		return &findings.Finding{Pkg: pkg, Analyzer: &analysis.Analyzer{Name: "test"}, Diag: analysis.Diagnostic{Message: msg, SuggestedFixes: fixes}}
	}
	f1 := find("inline", fix("inline", edit(`fmt.Sprint(1)`, 0, `"1"`)))
	f2 := find("overlaps f1", fix("rename", edit(`Sprint`, 0, `Sprintln`)))
	f3 := find("two edits", fix("two", edit("func c", 0, "// c is two.\nfunc c"), edit("1", 2, "2")))
	f4 := find("same edit as f3", fix("same", edit("1", 2, "2")))
	f5 := find("no fix", nil)
	f6 := find("second fix ignored", append(fix("first", edit(`"x"`, 0, `"y"`)), fix("second", edit(`"x"`, 0, `"z"`))...))
	all := []*findings.Finding{f1, f2, f3, f4, f5, f6}

	const want = `package p

import (
	"strings"
)

func a() string { return "1" }

func b() string { return strings.ToUpper("y") }

// c is two.
func c() int { return 2 }
`
	check := func(res *applyfix.Summary) {
		t.Helper()
		if res.Fixed != 4 || res.Files != 1 || res.Conflicts != 1 || len(res.Left) != 2 || res.Left[0] != f2 || res.Left[1] != f5 {
			t.Errorf("result = %+v", res)
		}
	}

	// -diff: nothing written, the diff printed.
	var out bytes.Buffer
	res, err := applyfix.Findings(dir, all, false, &out)
	if err != nil {
		t.Fatal(err)
	}
	check(res)
	if data, _ := os.ReadFile(filepath.Join(dir, "p.go")); string(data) != src {
		t.Error("-diff wrote the file")
	}
	if wantDiff := applyfix.UnifiedDiff("p.go", []byte(src), []byte(want)); out.String() != wantDiff {
		t.Errorf("diff:\n%s\nwant:\n%s", out.String(), wantDiff)
	}

	// -fix
	out.Reset()
	res, err = applyfix.Findings(dir, all, true, &out)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "p.go")); string(data) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", data, want)
	}
	if out.Len() != 0 {
		t.Errorf("-fix printed %q", out.String())
	}
	check(res)

	// The file changed since it was loaded: not touched again.
	if _, err := applyfix.Findings(dir, []*findings.Finding{f1}, true, &out); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Errorf("err = %v, want a changed-file error", err)
	}
}

func TestFindingsInvalidResult(t *testing.T) {
	const src = "package p\n\nfunc f() {}\n"
	dir, pkg := clitest.LoadTemp(t, map[string]string{"p.go": src})
	tf := pkg.Fset.File(pkg.Syntax[0].FileStart)
	bad := &findings.Finding{Pkg: pkg, Analyzer: &analysis.Analyzer{Name: "test"}, Diag: analysis.Diagnostic{
		SuggestedFixes: []analysis.SuggestedFix{{Message: "break it", TextEdits: []analysis.TextEdit{{Pos: tf.Pos(len(src) - 2), End: tf.Pos(len(src) - 1), NewText: nil}}}},
	}}
	var out bytes.Buffer
	_, err := applyfix.Findings(dir, []*findings.Finding{bad}, true, &out)
	if err == nil || !strings.Contains(err.Error(), "invalid Go") {
		t.Errorf("err = %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "p.go")); string(data) != src {
		t.Error("an invalid result was written")
	}
}
