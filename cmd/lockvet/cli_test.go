package main

import (
	"cmp"
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
)

// TestText: the text output of the example module is exactly the marked
// lines, sorted, each with the rule ID, and related positions indented.
func TestText(t *testing.T) {
	t.Parallel()
	r := lockvet(t, exampleDir, "./...")
	r.wantCode(t, exitFindings)
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
	got := parseText(t, r.stdout)
	sameMarkers(t, got, markers(t, exampleDir, markerSet{}))
	if !slices.IsSortedFunc(got, func(a, b marker) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line))
	}) {
		t.Errorf("findings not sorted by position:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "\n\t") {
		t.Errorf("no related position printed:\n%s", r.stdout)
	}
}

// TestTestsAndGenerated: -test=false drops findings in _test.go files,
// -include-generated adds the ones in generated files.
func TestTestsAndGenerated(t *testing.T) {
	t.Parallel()
	r := lockvet(t, exampleDir, "-test=false", "./...")
	sameMarkers(t, parseText(t, r.stdout), markers(t, exampleDir, markerSet{noTests: true}))

	r = lockvet(t, exampleDir, "-include-generated", "./...")
	want := markers(t, exampleDir, markerSet{generated: true})
	if len(want) == len(markers(t, exampleDir, markerSet{})) {
		t.Fatal("the example module has no marker in a generated file")
	}
	sameMarkers(t, parseText(t, r.stdout), want)
}

// jsonDiag is a diagnostic as go vet -json prints it.
type jsonDiag struct {
	Category       string `json:"category"`
	Posn           string `json:"posn"`
	End            string `json:"end"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename string  `json:"filename"`
			Start    *int    `json:"start"`
			End      *int    `json:"end"`
			New      *string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
	Related []struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	} `json:"related"`
}

var posnRE = regexp.MustCompile(`^(/.+\.go):(\d+):(\d+)$`)

// parseJSON decodes -json output, checks its shape and returns the
// findings as markers and the diagnostics.
func parseJSON(t *testing.T, dir, out string) ([]marker, []jsonDiag) {
	t.Helper()
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("-json output does not parse: %v\n%s", err, out)
	}
	var got []marker
	var all []jsonDiag
	for pkg, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var diags []jsonDiag
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Errorf("%s/%s: not a list of diagnostics: %s", pkg, name, raw)
				continue
			}
			for _, d := range diags {
				r := analyzer.Lookup(d.Category)
				if r == nil || r.Name != name {
					t.Errorf("%s: category %q is not the ID of analyzer %s", d.Posn, d.Category, name)
				}
				m := posnRE.FindStringSubmatch(d.Posn)
				if m == nil || !posnRE.MatchString(d.End) || d.Message == "" {
					t.Errorf("bad diagnostic %+v", d)
					continue
				}
				for _, f := range d.SuggestedFixes {
					if f.Message == "" || len(f.Edits) == 0 {
						t.Errorf("%s: bad fix %+v", d.Posn, f)
					}
					for _, e := range f.Edits {
						if !filepath.IsAbs(e.Filename) || e.Start == nil || e.End == nil || e.New == nil || *e.Start > *e.End {
							t.Errorf("%s: bad edit %+v", d.Posn, e)
						}
					}
				}
				for _, rel := range d.Related {
					if !posnRE.MatchString(rel.Posn) || rel.Message == "" {
						t.Errorf("%s: bad related %+v", d.Posn, rel)
					}
				}
				file, _ := filepath.Rel(dir, m[1])
				line, _ := strconv.Atoi(m[2])
				got = append(got, marker{filepath.ToSlash(file), line, d.Category})
				all = append(all, d)
			}
		}
	}
	return got, all
}

// TestJSON: -json prints the go vet -json shape, the same findings, and
// exits 0 although there are findings.
func TestJSON(t *testing.T) {
	t.Parallel()
	r := lockvet(t, exampleDir, "-json", "./...")
	r.wantCode(t, exitClean)
	got, diags := parseJSON(t, exampleDir, r.stdout)
	sameMarkers(t, got, markers(t, exampleDir, markerSet{}))
	fixes := 0
	for _, d := range diags {
		fixes += len(d.SuggestedFixes)
	}
	if fixes == 0 {
		t.Error("no suggested fix in the JSON output")
	}

	// Package keys: the test variant carries the non-test files too,
	// so a finding is listed once, as go vet lists it.
	var tree map[string]any
	json.Unmarshal([]byte(r.stdout), &tree)
	for id := range tree {
		if strings.HasSuffix(id, ".test") {
			t.Errorf("generated test main analyzed: %s", id)
		}
	}
}

// TestFixAndDiff: -diff changes no file and prints exactly the change
// -fix makes (checked by applying it with git apply); -fix on a copy of
// the example leaves code that builds and vets, and a second run finds
// only findings that have no fix.
func TestFixAndDiff(t *testing.T) {
	before := lockvet(t, exampleDir, "-json", "./...")
	_, diags := parseJSON(t, exampleDir, before.stdout)
	var reportOnly []marker
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 {
			m := posnRE.FindStringSubmatch(d.Posn)
			file, _ := filepath.Rel(exampleDir, m[1])
			line, _ := strconv.Atoi(m[2])
			reportOnly = append(reportOnly, marker{filepath.ToSlash(file), line, d.Category})
		}
	}

	dir := exampleCopy(t)
	original := snapshot(t, dir)
	d := lockvet(t, dir, "-diff", "./...")
	d.wantCode(t, exitFindings)
	if !strings.HasPrefix(d.stdout, "--- a/") || !strings.Contains(d.stdout, "\n@@ -") {
		t.Fatalf("-diff printed no unified diff:\n%s", d.stdout)
	}
	if !maps.Equal(original, snapshot(t, dir)) {
		t.Fatal("-diff changed files")
	}

	r := lockvet(t, dir, "-fix", "./...")
	if len(reportOnly) > 0 {
		r.wantCode(t, exitFindings)
	} else {
		r.wantCode(t, exitClean)
	}
	if !strings.Contains(r.stderr, "fixed ") {
		t.Errorf("no summary on stderr: %q", r.stderr)
	}
	fixed := snapshot(t, dir)

	t.Run("diff applies", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git is not installed: cannot apply the -diff output to compare it with -fix")
		}
		plain := copyTree(t, exampleDir)
		patch := filepath.Join(t.TempDir(), "fix.patch")
		if err := os.WriteFile(patch, []byte(d.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		if out := command(t, plain, "git", "apply", "--unsafe-paths", patch); out.code != 0 {
			t.Fatalf("git apply: %s%s\npatch:\n%s", out.stdout, out.stderr, d.stdout)
		}
		if !maps.Equal(snapshot(t, plain), fixed) {
			t.Error("applying the -diff output does not give what -fix writes")
		}
	})

	if out := command(t, dir, "go", "build", "./..."); out.code != 0 {
		t.Fatalf("go build ./... on the fixed copy: %s%s", out.stdout, out.stderr)
	}
	t.Run("go vet", func(t *testing.T) {
		needSlow(t, "runs go vet's own checks on the fixed copy")
		if out := command(t, dir, "go", "vet", "./..."); out.code != 0 {
			t.Fatalf("go vet ./... on the fixed copy: %s%s", out.stdout, out.stderr)
		}
	})
	if out := command(t, dir, "gofmt", "-l", "."); out.stdout != "" {
		t.Errorf("fixed files are not gofmt-ed: %s", out.stdout)
	}

	again := lockvet(t, dir, "-json", "./...")
	again.wantCode(t, exitClean)
	left, after := parseJSON(t, dir, again.stdout)
	// What -fix prints is what is left, at its place in the fixed files.
	sameMarkers(t, parseText(t, r.stdout), left)
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
		if len(markers(t, exampleDir, markerSet{under: "internal"})) != 0 {
			t.Fatal("example/internal should have no markers")
		}
		r := lockvet(t, exampleDir, "./internal/...")
		r.wantCode(t, exitClean)
		if r.stdout != "" || r.stderr != "" {
			t.Errorf("clean run printed:\n%s%s", r.stdout, r.stderr)
		}
	})
	t.Run("findings", func(t *testing.T) {
		lockvet(t, exampleDir, "./...").wantCode(t, exitFindings)
	})
	t.Run("type error", func(t *testing.T) {
		r := lockvet(t, brokenDir, "./...")
		r.wantCode(t, exitError)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "lockvet: example.com/broken/bad: bad/bad.go:8:") {
			t.Errorf("want one line naming the package and its first error, got:\n%s", r.stderr)
		}
		// The other package is still analyzed and reported.
		sameMarkers(t, parseText(t, r.stdout), markers(t, brokenDir, markerSet{}))

		r = lockvet(t, brokenDir, "-json", "./...")
		r.wantCode(t, exitError)
		if !strings.Contains(r.stdout, `"error": "bad/bad.go:8:`) {
			t.Errorf("-json does not carry the package error:\n%s", r.stdout)
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
			r.wantCode(t, exitError)
			if !strings.HasPrefix(r.stderr, tc.stderr) {
				t.Errorf("stderr = %q, want prefix %q", r.stderr, tc.stderr)
			}
			if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
				t.Errorf("stderr shows a crash:\n%s", r.stderr)
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
			r.wantCode(t, exitClean)
			for _, want := range []string{rule.ID, rule.Name, rule.Title, rule.URL(), strings.TrimSpace(strings.SplitN(rule.Why, "\n", 2)[0])} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("-explain %s: output lacks %q:\n%s", arg, want, r.stdout)
				}
			}
		}
	}
	r := lockvet(t, exampleDir, "-explain", "LV999")
	r.wantCode(t, exitError)
	if !strings.Contains(r.stderr, `unknown check "LV999"`) {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// TestChecks: -checks and -disable select checks by ID or name.
func TestChecks(t *testing.T) {
	t.Parallel()
	rules := analyzer.Rules()
	first := rules[0]
	only := func(id string) bool { return id == first.ID }
	for _, arg := range []string{first.ID, first.Name, strings.ToLower(first.ID) + ",", "," + first.Name} {
		r := lockvet(t, exampleDir, "-checks", arg, "./...")
		sameMarkers(t, parseText(t, r.stdout), markers(t, exampleDir, markerSet{ids: only}))
	}

	r := lockvet(t, exampleDir, "-disable", first.ID, "./...")
	if len(rules) == 1 {
		r.wantCode(t, exitError)
		if !strings.Contains(r.stderr, "no check to run") {
			t.Errorf("stderr = %q", r.stderr)
		}
	} else {
		sameMarkers(t, parseText(t, r.stdout), markers(t, exampleDir, markerSet{ids: func(id string) bool { return !only(id) }}))
	}

	// -redis-version selects fixes, not findings.
	r = lockvet(t, exampleDir, "-redis-version", "8.4", "./...")
	r.wantCode(t, exitFindings)
	sameMarkers(t, parseText(t, r.stdout), markers(t, exampleDir, markerSet{}))
}

// TestDirFlag: -C works as the first flag and elsewhere, paths are
// relative to it, and the README's go run command works.
func TestDirFlag(t *testing.T) {
	t.Parallel()
	want := markers(t, exampleDir, markerSet{})
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, exampleDir)
	for _, args := range [][]string{
		{"-C", rel, "./..."},
		{"-C=" + rel},
		{"-test=true", "-C", exampleDir, "./scheduler/...", "./orders/...", "./billing/...", "./cmd/...", "./internal/..."},
	} {
		r := lockvet(t, wd, args...)
		r.wantCode(t, exitFindings)
		sameMarkers(t, parseText(t, r.stdout), want)
	}

	repo := filepath.Dir(exampleDir)
	r := command(t, repo, "go", "run", "./cmd/lockvet", "-C", "testdata", "./...")
	r.wantCode(t, exitFindings)
	sameMarkers(t, parseText(t, r.stdout), want)
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
	v.wantCode(t, 1)
	vet := vetLines(t, exampleDir, v)
	slices.Sort(cli)
	slices.Sort(vet)
	if !slices.Equal(cli, vet) || len(cli) == 0 {
		t.Errorf("go vet and lockvet differ\ngo vet:\n%s\nlockvet:\n%s", strings.Join(vet, "\n"), strings.Join(cli, "\n"))
	}

	// Configuration flags reach the analyzers under go vet too.
	rules := analyzer.Rules()
	v = command(t, exampleDir, "go", "vet", "-vettool="+lockvetBin, "-checks="+rules[0].ID, "-redis-version", "8.4", "-json", "./...")
	v.wantCode(t, 0)
	// go vet -json prints one JSON object per package on stdout.
	var got []marker
	dec := json.NewDecoder(strings.NewReader(v.stdout))
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatalf("go vet -json: %v\n%s", err, v.stdout)
		}
		m, _ := parseJSON(t, exampleDir, string(raw))
		got = append(got, m...)
	}
	sameMarkers(t, got, markers(t, exampleDir, markerSet{ids: func(id string) bool { return id == rules[0].ID }}))
}

// cliLines are the findings and related positions of a text run of
// lockvet in dir, as "abs/file.go:line:col: message" (related: "\tmessage").
func cliLines(t *testing.T, dir string, r runResult) []string {
	t.Helper()
	var out []string
	for line := range strings.Lines(r.stdout) {
		line = strings.TrimSuffix(line, "\n")
		if m := textLineRE.FindStringSubmatch(line); m != nil {
			out = append(out, posLine(dir, m[1], m[2], m[3], m[4]+": "+m[5])) // go vet's lines carry the ID too
		} else if m := relatedLineRE.FindStringSubmatch(line); m != nil {
			out = append(out, posLine(dir, m[1], m[2], m[3], "\t"+m[4]))
		}
	}
	slices.Sort(out)
	return out
}

// vetLines are go vet's text findings in the form of cliLines.
func vetLines(t *testing.T, dir string, v runResult) []string {
	t.Helper()
	var out []string
	for line := range strings.Lines(v.stderr) {
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
		r.wantCode(t, exitClean)
		if !strings.HasPrefix(r.stdout, "lockvet ") {
			t.Errorf("%s printed %q", arg, r.stdout)
		}
	}
	r := lockvet(t, exampleDir, "-V=full")
	r.wantCode(t, exitClean)
	if !strings.Contains(r.stdout, "buildID=") {
		t.Errorf("-V=full (the go vet protocol) printed %q", r.stdout)
	}
}
