package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLabelsScore: a finding matches a bug label only on the same file,
// one of its lines and the same check; a finding on an ok label's line
// flags correct code; every other finding matches no label.
func TestLabelsScore(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "labels.txt", `
# comment
bug example.com/app@v1.0.0 lock/lock.go:13 LV201 -- bare DEL in Unlock helper; acquired in Lock
bug example.com/app@v1.0.0 lock/lock.go:9,20 LV204 -- constant value released
bug example.com/app@v1.0.0 jobs/jobs.go:30 LV105 -- bool dropped at call site
ok  example.com/app@v1.0.0 cache/cache.go:5 - -- cache Del helper, not a lock
ok  example.com/app@v1.0.0 cache/cache.go:8 - -- SET NX PX token and Lua release
`)
	ls, err := readLabels(file)
	if err != nil {
		t.Fatal(err)
	}
	m := &module{path: "example.com/app", version: "v1.0.0", app: true, findings: []*finding{
		{file: "lock/lock.go", line: 13, rule: "LV201", note: &note{verdict: "bug"}},  // bug found
		{file: "lock/lock.go", line: 20, rule: "LV204", note: &note{verdict: "bug"}},  // bug found on its second line
		{file: "jobs/jobs.go", line: 30, rule: "LV201", note: &note{verdict: "fp"}},   // right line, wrong check
		{file: "cache/cache.go", line: 5, rule: "LV201", note: &note{verdict: "fp"}},  // correct code flagged
		{file: "other.go", line: 1, rule: "LV101", note: &note{verdict: "debatable"}}, // no label
		{file: "lock/lock.go", line: 14, rule: "LV201", note: &note{verdict: "bug"}},  // a line off: no label
	}}
	s := ls.apply(m)
	if s.bugs != 3 || s.found != 2 || len(s.missed) != 1 || s.missed[0].check != "LV105" {
		t.Errorf("bugs %d found %d missed %v, want 3, 2, [LV105]", s.bugs, s.found, s.missed)
	}
	if s.correct != 2 || s.flagged != 1 || s.flaggedOK[0].file != "cache/cache.go" {
		t.Errorf("correct %d flagged %d, want 2, 1 (cache/cache.go:5)", s.correct, s.flagged)
	}
	if s.findings != 6 || s.onBug != 2 || s.unlabelled != 3 {
		t.Errorf("findings %d on bug labels %d unlabelled %d, want 6, 2, 3", s.findings, s.onBug, s.unlabelled)
	}
	if s.verdicts["bug"] != 3 || s.verdicts["fp"] != 2 || s.verdicts["debatable"] != 1 {
		t.Errorf("verdicts %v", s.verdicts)
	}

	var buf bytes.Buffer
	writeRecall(&buf, []*module{m}, ls)
	out := buf.String()
	for _, want := range []string{
		"| example.com/app@v1.0.0 | yes | 3 | 2 | 1 | 2 | 1 | 6 | 3 / 2 / 1 | 3 |",
		"Recall on the labelled bugs: 2 of 3 (67%)",
		"3 true of 5 judged true or false (60%), 1 debatable",
		"- missed LV105 `jobs/jobs.go:30`: bool dropped at call site",
		"- flagged correct code `cache/cache.go:5` LV201 (cache Del helper, not a lock)",
		"- no label: `other.go:1` LV101 (debatable)",
		"| LV204 | 1 | 1 | 0 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(recallLine([]*module{m}, ls), "3 labelled bugs, 2 found (recall 67%)") {
		t.Errorf("recallLine = %q", recallLine([]*module{m}, ls))
	}
}

// TestLabelsBad: malformed labels, labels of modules not in the list and
// labels naming lines a file does not have are errors, not silently
// dropped from the counts.
func TestLabelsBad(t *testing.T) {
	dir := t.TempDir()
	for _, line := range []string{
		"bug m@v1 a.go:3 -- no check",
		"bug m@v1 a.go:3 LV999 -- unknown check",
		"ok m@v1 a.go:3 LV201 -- ok with a check",
		"maybe m@v1 a.go:3 - -- unknown kind",
		"bug m@v1 a.go LV201 -- no line",
		"bug m@v1 a.go:x LV201 -- bad line",
		"bug m@v1 a.go:3 LV201",
		"bug m@v1 a.go:3 LV201 -- ",
	} {
		if _, err := readLabels(writeFile(t, dir, "l.txt", line+"\n")); err == nil {
			t.Errorf("%q: no error", line)
		}
	}
	ls, err := readLabels(writeFile(t, dir, "l.txt", "bug m@v1 a.go:3 LV201 -- shape\nok m@v1 b.go:9 - -- shape\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := ls.known([]*module{{path: "other", version: "v1"}}); err == nil {
		t.Error("a label of a module not in modules.txt: no error")
	}
	m := &module{path: "m", version: "v1"}
	src := t.TempDir()
	writeFile(t, src, "a.go", "package a\n\nfunc f() {}\n")
	ls.check(m, src)
	if len(m.errors) != 1 || !strings.Contains(m.errors[0].text, "b.go") {
		t.Errorf("errors %v, want one for the missing b.go", m.errors)
	}
	writeFile(t, src, "b.go", "package a\n")
	m.errors = nil
	ls.check(m, src)
	if len(m.errors) != 1 || !strings.Contains(m.errors[0].text, "the file has 2 lines") {
		t.Errorf("errors %v, want one for b.go's line 9", m.errors)
	}
}

// TestModuleTags reads the app tag and pkgs= patterns.
func TestModuleTags(t *testing.T) {
	dir := t.TempDir()
	mods, err := readModules(writeFile(t, dir, "m.txt", "example.com/a@v1.0.0 app pkgs=./x/...,./y -- why\nexample.com/b@v1.0.0 quick\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !mods[0].app || mods[0].quick || strings.Join(mods[0].pkgs, " ") != "./x/... ./y" || mods[1].app || !mods[1].quick {
		t.Errorf("modules %+v %+v", mods[0], mods[1])
	}
	if _, err := readModules(writeFile(t, dir, "m.txt", "example.com/a@v1.0.0 pkgs=x/...\n")); err == nil {
		t.Error("pkgs= pattern not starting with ./: no error")
	}
}
