package main

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
)

// TestFixAndDiff: -diff changes no file and prints exactly the change
// -fix makes (checked by applying it with git apply); -fix on a copy of
// the example leaves code that builds and vets, and a second run finds
// only findings that have no fix.
func TestFixAndDiff(t *testing.T) {
	before := lockvet(t, exampleDir, "-json", "./...")
	_, diags := clitest.ParseJSON(t, exampleDir, before.Stdout)
	var reportOnly []clitest.Marker
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 {
			m := clitest.PosnRE.FindStringSubmatch(d.Posn)
			file, _ := filepath.Rel(exampleDir, m[1])
			line, _ := strconv.Atoi(m[2])
			reportOnly = append(reportOnly, clitest.Marker{File: filepath.ToSlash(file), Line: line, ID: d.Category})
		}
	}

	dir := clitest.ExampleCopy(t)
	original := clitest.Snapshot(t, dir)
	d := lockvet(t, dir, "-diff", "./...")
	d.WantCode(t, driver.ExitFindings)
	if !strings.HasPrefix(d.Stdout, "--- a/") || !strings.Contains(d.Stdout, "\n@@ -") {
		t.Fatalf("-diff printed no unified diff:\n%s", d.Stdout)
	}
	if !maps.Equal(original, clitest.Snapshot(t, dir)) {
		t.Fatal("-diff changed files")
	}

	r := lockvet(t, dir, "-fix", "./...")
	if len(reportOnly) > 0 {
		r.WantCode(t, driver.ExitFindings)
	} else {
		r.WantCode(t, driver.ExitClean)
	}
	if !strings.Contains(r.Stderr, "fixed ") {
		t.Errorf("no summary on stderr: %q", r.Stderr)
	}
	fixed := clitest.Snapshot(t, dir)

	t.Run("diff applies", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git is not installed: cannot apply the -diff output to compare it with -fix")
		}
		plain := clitest.CopyTree(t, exampleDir)
		patch := filepath.Join(t.TempDir(), "fix.patch")
		if err := os.WriteFile(patch, []byte(d.Stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := command(t, plain, "git", "apply", "--unsafe-paths", patch); out.Code != 0 {
			t.Fatalf("git apply: %s%s\npatch:\n%s", out.Stdout, out.Stderr, d.Stdout)
		}
		if !maps.Equal(clitest.Snapshot(t, plain), fixed) {
			t.Error("applying the -diff output does not give what -fix writes")
		}
	})

	if out := command(t, dir, "go", "build", "./..."); out.Code != 0 {
		t.Fatalf("go build ./... on the fixed copy: %s%s", out.Stdout, out.Stderr)
	}
	t.Run("go vet", func(t *testing.T) {
		needSlow(t, "runs go vet's own checks on the fixed copy")
		if out := command(t, dir, "go", "vet", "./..."); out.Code != 0 {
			t.Fatalf("go vet ./... on the fixed copy: %s%s", out.Stdout, out.Stderr)
		}
	})
	if out := command(t, dir, "gofmt", "-l", "."); out.Stdout != "" {
		t.Errorf("fixed files are not gofmt-ed: %s", out.Stdout)
	}

	again := lockvet(t, dir, "-json", "./...")
	again.WantCode(t, driver.ExitClean)
	left, after := clitest.ParseJSON(t, dir, again.Stdout)
	// What -fix prints is what is left, at its place in the fixed files.
	clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), left)
	if len(after) != len(reportOnly) {
		t.Errorf("after -fix: %d findings, want the %d without a fix", len(after), len(reportOnly))
	}
	for _, d := range after {
		if len(d.SuggestedFixes) > 0 {
			t.Errorf("after -fix, still a fixable finding: %s: %s", d.Posn, d.Message)
		}
	}
}

// TestExitCodes: 0 clean, 1 findings, 2 errors; 2 wins over 1, and the
// packages that load are still analyzed.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	t.Run("clean", func(t *testing.T) {
		if len(clitest.Markers(t, exampleDir, clitest.MarkerSet{Under: "internal"})) != 0 {
			t.Fatal("example/internal should have no markers")
		}
		r := lockvet(t, exampleDir, "./internal/...")
		r.WantCode(t, driver.ExitClean)
		if r.Stdout != "" || r.Stderr != "" {
			t.Errorf("clean run printed:\n%s%s", r.Stdout, r.Stderr)
		}
	})
	t.Run("findings", func(t *testing.T) {
		lockvet(t, exampleDir, "./...").WantCode(t, driver.ExitFindings)
	})
	t.Run("type error", func(t *testing.T) {
		r := lockvet(t, brokenDir, "./...")
		r.WantCode(t, driver.ExitError)
		lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "lockvet: example.com/broken/bad: bad/bad.go:8:") {
			t.Errorf("want one line naming the package and its first error, got:\n%s", r.Stderr)
		}
		// The other package is still analyzed and reported.
		clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), clitest.Markers(t, brokenDir, clitest.MarkerSet{}))

		r = lockvet(t, brokenDir, "-json", "./...")
		r.WantCode(t, driver.ExitError)
		if !strings.Contains(r.Stdout, `"error": "bad/bad.go:8:`) {
			t.Errorf("-json does not carry the package error:\n%s", r.Stdout)
		}
	})
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no such directory", []string{"./nothing/..."}, "lockvet: pattern ./nothing/...: "},
		{"no packages", []string{"example.com/nothing/..."}, "lockvet: example.com/nothing/... matched no packages"},
		{"unknown check", []string{"-checks", "LV999"}, `lockvet: unknown check "LV999"`},
		{"unknown disabled check", []string{"-disable", "nosuchcheck"}, `lockvet: unknown check "nosuchcheck"`},
		{"bad redis version", []string{"-redis-version", "eight"}, `lockvet: redis version "eight"`},
		{"bad flag", []string{"-nosuchflag"}, "flag provided but not defined: -nosuchflag"},
		{"json and fix", []string{"-json", "-fix"}, "lockvet: -json cannot be combined with -fix or -diff"},
		{"bad -C", []string{"-C", "nosuchdir"}, "lockvet: -C nosuchdir: not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := lockvet(t, exampleDir, tc.args...)
			r.WantCode(t, driver.ExitError)
			if !strings.HasPrefix(r.Stderr, tc.stderr) {
				t.Errorf("stderr = %q, want prefix %q", r.Stderr, tc.stderr)
			}
			if strings.Contains(r.Stderr, "panic") || strings.Contains(r.Stderr, "goroutine ") {
				t.Errorf("stderr shows a crash:\n%s", r.Stderr)
			}
		})
	}
}

// TestExplain: -explain prints every registered rule's documentation.
func TestExplain(t *testing.T) {
	t.Parallel()
	for _, rule := range analyzer.Rules() {
		for _, arg := range []string{rule.ID, strings.ToLower(rule.ID), rule.Name} {
			r := lockvet(t, exampleDir, "-explain", arg)
			r.WantCode(t, driver.ExitClean)
			for _, want := range []string{rule.ID, rule.Name, rule.Title, rule.URL(), strings.TrimSpace(strings.SplitN(rule.Why, "\n", 2)[0])} {
				if !strings.Contains(r.Stdout, want) {
					t.Errorf("-explain %s: output lacks %q:\n%s", arg, want, r.Stdout)
				}
			}
		}
	}
	r := lockvet(t, exampleDir, "-explain", "LV999")
	r.WantCode(t, driver.ExitError)
	if !strings.Contains(r.Stderr, `unknown check "LV999"`) {
		t.Errorf("stderr = %q", r.Stderr)
	}
}

// TestDirFlag: -C works as the first flag and elsewhere, paths are
// relative to it, and the README's go run command works.
func TestDirFlag(t *testing.T) {
	t.Parallel()
	want := clitest.Markers(t, exampleDir, clitest.MarkerSet{})
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, exampleDir)
	for _, args := range [][]string{
		{"-C", rel, "./..."},
		{"-C=" + rel},
		{"-test=true", "-C", exampleDir, "./scheduler/...", "./orders/...", "./billing/...", "./cmd/...", "./internal/..."},
	} {
		r := lockvet(t, wd, args...)
		r.WantCode(t, driver.ExitFindings)
		clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), want)
	}

	repo := filepath.Dir(exampleDir)
	r := command(t, repo, "go", "run", "./cmd/lockvet", "-C", "testdata", "./...")
	r.WantCode(t, driver.ExitFindings)
	clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), want)
}

// vetLineRE is a line of go vet's text output.
var vetLineRE = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): (.*)$`)

// TestVet: go vet -vettool=lockvet reports what the CLI reports: the same
// positions and messages, each led by its check ID, related positions
// included.
func TestVet(t *testing.T) {
	t.Parallel()
	needSlow(t, govetHost)
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	cli := cliLines(t, exampleDir, lockvet(t, exampleDir, "./..."))
	v := command(t, exampleDir, "go", "vet", "-vettool="+lockvetBin, "./...")
	v.WantCode(t, 1)
	vet := vetLines(t, exampleDir, v)
	slices.Sort(cli)
	slices.Sort(vet)
	if !slices.Equal(cli, vet) || len(cli) == 0 {
		t.Errorf("go vet and lockvet differ\ngo vet:\n%s\nlockvet:\n%s", strings.Join(vet, "\n"), strings.Join(cli, "\n"))
	}

	// Configuration flags reach the analyzers under go vet too.
	rules := analyzer.Rules()
	v = command(t, exampleDir, "go", "vet", "-vettool="+lockvetBin, "-checks="+rules[0].ID, "-redis-version", "8.4", "-json", "./...")
	v.WantCode(t, 0)
	// go vet -json prints one JSON object per package on stdout.
	var got []clitest.Marker
	dec := json.NewDecoder(strings.NewReader(v.Stdout))
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatalf("go vet -json: %v\n%s", err, v.Stdout)
		}
		m, _ := clitest.ParseJSON(t, exampleDir, string(raw))
		got = append(got, m...)
	}
	clitest.SameMarkers(t, got, clitest.Markers(t, exampleDir, clitest.MarkerSet{IDs: func(id string) bool { return id == rules[0].ID }}))
}

// cliLines are the findings and related positions of a text run of
// lockvet in dir, as "abs/file.go:line:col: message" (related: "\tmessage").
func cliLines(t *testing.T, dir string, r clitest.RunResult) []string {
	t.Helper()
	var out []string
	for line := range strings.Lines(r.Stdout) {
		line = strings.TrimSuffix(line, "\n")
		if m := clitest.TextLineRE.FindStringSubmatch(line); m != nil {
			out = append(out, posLine(dir, m[1], m[2], m[3], m[4]+": "+m[5])) // go vet's lines carry the ID too
		} else if m := clitest.RelatedLineRE.FindStringSubmatch(line); m != nil {
			out = append(out, posLine(dir, m[1], m[2], m[3], "\t"+m[4]))
		}
	}
	slices.Sort(out)
	return out
}

// vetLines are go vet's text findings in the form of cliLines.
func vetLines(t *testing.T, dir string, v clitest.RunResult) []string {
	t.Helper()
	var out []string
	for line := range strings.Lines(v.Stderr) {
		line = strings.TrimSuffix(line, "\n")
		if strings.HasPrefix(line, "# ") {
			continue
		}
		m := vetLineRE.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("unexpected go vet output: %q", line)
			continue
		}
		out = append(out, posLine(dir, m[1], m[2], m[3], m[4]))
	}
	slices.Sort(out)
	return out
}

func posLine(dir, file, line, col, msg string) string {
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	return file + ":" + line + ":" + col + ": " + msg
}

// TestVersion: -V and -version print the version.
func TestVersion(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"-V", "-version"} {
		r := lockvet(t, exampleDir, arg)
		r.WantCode(t, driver.ExitClean)
		if !strings.HasPrefix(r.Stdout, "lockvet ") {
			t.Errorf("%s printed %q", arg, r.Stdout)
		}
	}
	r := lockvet(t, exampleDir, "-V=full")
	r.WantCode(t, driver.ExitClean)
	if !strings.Contains(r.Stdout, "buildID=") {
		t.Errorf("-V=full (the go vet protocol) printed %q", r.Stdout)
	}
}
