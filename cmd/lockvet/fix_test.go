package main

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// loadTemp writes files into a new module and loads it like lockvet does.
func loadTemp(t *testing.T, files map[string]string) (string, *packages.Package) {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/p\n\ngo 1.26\n"
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: loadMode, Dir: dir, Env: offline()}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("load: %v", pkgs[0].Errors)
	}
	return dir, pkgs[0]
}

func TestApplyFixes(t *testing.T) {
	const src = `package p

import (
	"fmt"
	"strings"
)

func a() string { return fmt.Sprint(1) }

func b() string { return strings.ToUpper("x") }

func c() int { return   1 }
`
	dir, pkg := loadTemp(t, map[string]string{"p.go": src})
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
	find := func(msg string, fixes []analysis.SuggestedFix) *finding {
		return &finding{pkg: pkg, analyzer: &analysis.Analyzer{Name: "test"}, diag: analysis.Diagnostic{Message: msg, SuggestedFixes: fixes}}
	}
	f1 := find("inline", fix("inline", edit(`fmt.Sprint(1)`, 0, `"1"`)))
	f2 := find("overlaps f1", fix("rename", edit(`Sprint`, 0, `Sprintln`)))
	f3 := find("two edits", fix("two", edit("func c", 0, "// c is two.\nfunc c"), edit("1", 2, "2")))
	f4 := find("same edit as f3", fix("same", edit("1", 2, "2")))
	f5 := find("no fix", nil)
	f6 := find("second fix ignored", append(fix("first", edit(`"x"`, 0, `"y"`)), fix("second", edit(`"x"`, 0, `"z"`))...))
	findings := []*finding{f1, f2, f3, f4, f5, f6}

	const want = `package p

import (
	"strings"
)

func a() string { return "1" }

func b() string { return strings.ToUpper("y") }

// c is two.
func c() int { return 2 }
`
	check := func(res *fixResult) {
		t.Helper()
		if res.fixed != 4 || res.files != 1 || res.conflicts != 1 || len(res.left) != 2 || res.left[0] != f2 || res.left[1] != f5 {
			t.Errorf("result = %+v", res)
		}
	}

	// -diff: nothing written, the diff printed.
	var out bytes.Buffer
	res, err := applyFixes(dir, findings, false, &out)
	if err != nil {
		t.Fatal(err)
	}
	check(res)
	if data, _ := os.ReadFile(filepath.Join(dir, "p.go")); string(data) != src {
		t.Error("-diff wrote the file")
	}
	if wantDiff := unifiedDiff("p.go", []byte(src), []byte(want)); out.String() != wantDiff {
		t.Errorf("diff:\n%s\nwant:\n%s", out.String(), wantDiff)
	}

	// -fix
	out.Reset()
	res, err = applyFixes(dir, findings, true, &out)
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
	if _, err := applyFixes(dir, []*finding{f1}, true, &out); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Errorf("err = %v, want a changed-file error", err)
	}
}

func TestApplyFixesInvalidResult(t *testing.T) {
	const src = "package p\n\nfunc f() {}\n"
	dir, pkg := loadTemp(t, map[string]string{"p.go": src})
	tf := pkg.Fset.File(pkg.Syntax[0].FileStart)
	bad := &finding{pkg: pkg, analyzer: &analysis.Analyzer{Name: "test"}, diag: analysis.Diagnostic{
		SuggestedFixes: []analysis.SuggestedFix{{Message: "break it", TextEdits: []analysis.TextEdit{{Pos: tf.Pos(len(src) - 2), End: tf.Pos(len(src) - 1), NewText: nil}}}},
	}}
	var out bytes.Buffer
	_, err := applyFixes(dir, []*finding{bad}, true, &out)
	if err == nil || !strings.Contains(err.Error(), "invalid Go") {
		t.Errorf("err = %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "p.go")); string(data) != src {
		t.Error("an invalid result was written")
	}
}
