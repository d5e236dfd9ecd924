package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
)

// gitRepo copies the example module into a new git repository, one
// directory below its root (as a module in a monorepo), and commits it.
// It returns the module directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	mod := clitest.ExampleCopy(t)
	repo := filepath.Dir(mod)
	clitest.Git(t, repo, "init", "-q", "-b", "main")
	clitest.Git(t, repo, "add", ".")
	clitest.Git(t, repo, "commit", "-q", "-m", "example")
	return mod
}

// editLine replaces old with new on line n of file (1-based).
func editLine(t *testing.T, dir, file string, n int, old, new string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(file))
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	if !strings.Contains(lines[n-1], old) {
		t.Fatalf("%s:%d does not contain %q: %q", file, n, old, lines[n-1])
	}
	lines[n-1] = strings.Replace(lines[n-1], old, new, 1)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNewFromRev: -new-from-rev selects the findings whose function
// changed since the revision: an edit of the EXPIRE line alone selects the
// SETNX+EXPIRE finding, an edit of the SETNX line too; edits elsewhere,
// blank lines above, do not; untracked files count as new; committed
// changes count against an older revision, and nothing is new since the
// commit; with a baseline, both gates apply.
//
// Each edit is in a function of its own, so one analysis of the edited
// module shows what each edit selects. Committing the edits changes no
// file, so that analysis is gated again after the commit, against both
// revisions and with the baseline.
func TestNewFromRev(t *testing.T) {
	mod := gitRepo(t)
	since := func(rev string) Options { return Options{NewFromRev: rev} }

	// The EXPIRE line of one LV101 finding.
	expire := clitest.Marker{File: "scheduler/scheduler.go", Line: 69, ID: "LV101"}
	editLine(t, mod, expire.File, expire.Line, "s.lockTTL)", "2*s.lockTTL)")
	// A blank line above everything in another file, and a comment in a
	// function without findings.
	editLine(t, mod, "orders/orders.go", 1, "// Package orders", "\n// Package orders")
	// The SETNX line (the related position) of another one.
	acquire := clitest.Marker{File: "orders/refund.go", Line: 17, ID: "LV101"}
	editLine(t, mod, "orders/refund.go", 13, ".Result()", ".Result() // acquire")
	// An untracked file is new throughout.
	if err := os.WriteFile(filepath.Join(mod, "scheduler", "cleanup.go"), []byte(newBugFile), 0o644); err != nil {
		t.Fatal(err)
	}
	added := clitest.Marker{File: "scheduler/cleanup.go", Line: 16, ID: "LV101"}
	res := analyze(t, mod)
	clitest.SameMarkers(t, gated(t, res, mod, since("HEAD")), []clitest.Marker{expire, acquire, added})

	// Committed: nothing is new since HEAD, all three since HEAD~1.
	clitest.Git(t, filepath.Dir(mod), "add", ".")
	clitest.Git(t, filepath.Dir(mod), "commit", "-q", "-m", "edits")
	if got := gated(t, res, mod, since("HEAD")); len(got) != 0 {
		t.Errorf("committed, yet new since HEAD: %v", got)
	}
	clitest.SameMarkers(t, gated(t, res, mod, since("HEAD~1")), []clitest.Marker{expire, acquire, added})

	// With a baseline too: both gates apply.
	base := filepath.Join(mod, "base.json")
	if err := WriteBaseline(base, res, res.Findings); err != nil {
		t.Fatal(err)
	}
	if got := gated(t, res, mod, Options{NewFromRev: "HEAD~1", Baseline: base}); len(got) != 0 {
		t.Errorf("-new-from-rev HEAD~1 -baseline: %v", got)
	}

	for _, tc := range []struct{ rev, err string }{
		{"nosuchrev", `-new-from-rev: "nosuchrev" is not a commit`},
		{"--output=x", `-new-from-rev: "--output=x" is not a revision`},
	} {
		if _, err := GitChanges(mod, tc.rev); err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("-new-from-rev %s: %v, want prefix %q", tc.rev, err, tc.err)
		}
	}
	if _, err := os.Stat(filepath.Join(mod, "x")); err == nil {
		t.Error("a revision was taken for a git option")
	}
}

// TestNewFromRevNoRepo: outside a git repository -new-from-rev is an error.
func TestNewFromRevNoRepo(t *testing.T) {
	t.Parallel()
	if _, err := GitChanges(t.TempDir(), "HEAD"); err == nil || !strings.HasPrefix(err.Error(), "-new-from-rev: git rev-parse: ") {
		t.Errorf("err = %v", err)
	}
}

func TestParseUnifiedZero(t *testing.T) {
	diff := `diff --git a/a.go b/a.go
index 1..2 100644
--- a/a.go
+++ b/a.go
@@ -3 +3 @@ func f() {
-	x := 1
+	x := 2
@@ -10,2 +10,0 @@ func g() {
-	a()
-	b()
@@ -20,0 +19,3 @@
+	c()
+++ b/tricky.go
+	e()
@@ -30 +31 @@
--- a/tricky.go
+x
\ No newline at end of file
diff --git a/old.go b/old.go
deleted file mode 100644
--- a/old.go
+++ /dev/null
@@ -1 +0,0 @@
-package p
diff --git "a/sp ace\t.go" "b/sp ace\t.go"
new file mode 100644
--- /dev/null
+++ "b/sp ace\t.go"
@@ -0,0 +1,2 @@
+package p
+// @@ -1 +1 @@ is content here
diff --git a/renamed.go b/moved.go
similarity index 100%
rename from renamed.go
rename to moved.go
diff --git a/bin.dat b/bin.dat
Binary files a/bin.dat and b/bin.dat differ
`
	got, err := parseUnifiedZero([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]lineRange{
		"a.go":        {{3, 3}, {10, 11}, {19, 21}, {31, 31}},
		"sp ace\t.go": {{1, 2}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseUnifiedZero =\n\t%v\nwant\n\t%v", got, want)
	}
	if _, err := parseUnifiedZero([]byte("+++ b/x.go\n@@ -1 +x @@\n")); err == nil {
		t.Error("a bad hunk header is accepted")
	}
}

func TestTouched(t *testing.T) {
	root := filepath.FromSlash("/repo")
	c := &Changes{
		root:    root,
		lines:   map[string][]lineRange{"a.go": {{5, 7}}, "new.go": nil},
		tracked: map[string]bool{"a.go": true, "b.go": true, "new.go": true},
	}
	for _, tc := range []struct {
		file     string
		from, to int
		want     bool
	}{
		{"a.go", 1, 4, false},
		{"a.go", 1, 5, true},
		{"a.go", 7, 9, true},
		{"a.go", 8, 9, false},
		{"b.go", 1, 100, false}, // tracked, unchanged
		{"new.go", 1, 1, false}, // in the diff without changed lines (a rename)
		{"c.go", 1, 1, true},    // untracked
	} {
		if got := c.touched(filepath.Join(root, tc.file), tc.from, tc.to); got != tc.want {
			t.Errorf("touched(%s, %d, %d) = %v", tc.file, tc.from, tc.to, got)
		}
	}
}
