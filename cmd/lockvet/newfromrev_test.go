package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// gitRepo copies the example module into a new git repository, one
// directory below its root (as a module in a monorepo), and commits it.
// It returns the module directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	mod := exampleCopy(t)
	repo := filepath.Dir(mod)
	gitIn(t, repo, "init", "-q", "-b", "main")
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-q", "-m", "example")
	return mod
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	args = append([]string{"-c", "user.name=lockvet test", "-c", "user.email=test@lockvet.invalid", "-c", "commit.gpgsign=false"}, args...)
	if r := command(t, dir, "git", args...); r.code != 0 {
		t.Fatalf("git %s: %s%s", strings.Join(args, " "), r.stdout, r.stderr)
	}
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

// TestNewFromRev: -new-from-rev reports the findings whose function
// changed since the revision: an edit of the EXPIRE line alone shows the
// SETNX+EXPIRE finding, an edit of the SETNX line too; edits elsewhere,
// blank lines above, do not; untracked files count as new; committed
// changes count against an older revision.
func TestNewFromRev(t *testing.T) {
	mod := gitRepo(t)
	r := lockvet(t, mod, "-new-from-rev", "HEAD", "./...")
	r.wantCode(t, exitClean)
	if r.stdout != "" {
		t.Errorf("no change, yet:\n%s", r.stdout)
	}

	// The EXPIRE line of one LV101 finding.
	expire := marker{"scheduler/scheduler.go", 69, "LV101"}
	editLine(t, mod, expire.file, expire.line, "s.lockTTL)", "2*s.lockTTL)")
	// A blank line above everything in another file, and a comment in a
	// function without findings.
	editLine(t, mod, "orders/orders.go", 1, "// Package orders", "\n// Package orders")
	r = lockvet(t, mod, "-new-from-rev", "HEAD", "./...")
	r.wantCode(t, exitFindings)
	sameMarkers(t, parseText(t, r.stdout), []marker{expire})

	// The SETNX line (the related position) of another one.
	acquire := marker{"orders/refund.go", 17, "LV101"}
	editLine(t, mod, "orders/refund.go", 13, ".Result()", ".Result() // acquire")
	r = lockvet(t, mod, "-new-from-rev", "HEAD", "./...")
	sameMarkers(t, parseText(t, r.stdout), []marker{expire, acquire})

	// An untracked file is new throughout.
	if err := os.WriteFile(filepath.Join(mod, "scheduler", "cleanup.go"), []byte(newBugFile), 0o644); err != nil {
		t.Fatal(err)
	}
	added := marker{"scheduler/cleanup.go", 16, "LV101"}
	r = lockvet(t, mod, "-new-from-rev", "HEAD", "./...")
	sameMarkers(t, parseText(t, r.stdout), []marker{expire, acquire, added})

	// Committed: nothing is new since HEAD, all three since HEAD~1, in
	// every format.
	gitIn(t, filepath.Dir(mod), "add", ".")
	gitIn(t, filepath.Dir(mod), "commit", "-q", "-m", "edits")
	r = lockvet(t, mod, "-new-from-rev", "HEAD", "./...")
	r.wantCode(t, exitClean)
	r = lockvet(t, mod, "-new-from-rev", "HEAD~1", "./...")
	sameMarkers(t, parseText(t, r.stdout), []marker{expire, acquire, added})
	r = lockvet(t, mod, "-new-from-rev", "HEAD~1", "-format", "sarif", "./...")
	r.wantCode(t, exitFindings)
	var got []marker
	for _, res := range parseSARIF(t, r.stdout).Runs[0].Results {
		got = append(got, res.marker(t, mod))
	}
	sameMarkers(t, got, []marker{expire, acquire, added})
	r = lockvet(t, mod, "-new-from-rev", "HEAD~1", "-format", "github", "./...")
	if n := strings.Count(r.stdout, "\n"); n != 3 || !strings.Contains(r.stdout, "file=svc/scheduler/cleanup.go,") {
		t.Errorf("-format github: paths are relative to the repository root, one line per finding:\n%s", r.stdout)
	}

	// With a baseline too: both filters apply.
	lockvet(t, mod, "-write-baseline", "base.json", "./...").wantCode(t, exitClean)
	r = lockvet(t, mod, "-new-from-rev", "HEAD~1", "-baseline", "base.json", "./...")
	r.wantCode(t, exitClean)

	for _, tc := range []struct{ rev, stderr string }{
		{"nosuchrev", `lockvet: -new-from-rev: "nosuchrev" is not a commit`},
		{"--output=x", `lockvet: -new-from-rev: "--output=x" is not a revision`},
	} {
		r = lockvet(t, mod, "-new-from-rev", tc.rev, "./...")
		r.wantCode(t, exitError)
		if !strings.HasPrefix(r.stderr, tc.stderr) {
			t.Errorf("-new-from-rev %s: stderr = %q, want prefix %q", tc.rev, r.stderr, tc.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(mod, "x")); err == nil {
		t.Error("a revision was taken for a git option")
	}
}

// TestNewFromRevNoRepo: outside a git repository -new-from-rev is an error.
func TestNewFromRevNoRepo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/x\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := lockvet(t, dir, "-new-from-rev", "HEAD", "./...")
	r.wantCode(t, exitError)
	if !strings.HasPrefix(r.stderr, "lockvet: -new-from-rev: git rev-parse: ") {
		t.Errorf("stderr = %q", r.stderr)
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
	c := &changes{
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
