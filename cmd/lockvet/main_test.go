package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/analyzer"
)

// The tests build lockvet once and run it as a user would, on the
// example module (testdata/ at the repository root, the module the README
// points at) and on a module with a broken package
// (cmd/lockvet/testdata/broken).

var (
	lockvetBin string // the built binary
	exampleDir string // absolute path of the example module
	brokenDir  string // absolute path of the broken-package module
	setupErr   error
)

func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "lockvet-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	setupErr = setup(tmp)
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

func setup(tmp string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	exampleDir = filepath.Join(wd, "..", "..", "testdata")
	brokenDir = filepath.Join(wd, "testdata", "broken")
	lockvetBin = filepath.Join(tmp, "lockvet")
	if out, err := exec.Command("go", "build", "-o", lockvetBin, ".").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	// The modules the example needs must be in the module cache; the
	// analysis itself then runs with GOPROXY=off.
	for _, dir := range []string{exampleDir, brokenDir, filepath.Join(wd, xpkgDir)} {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go mod download in %s: %v\n%s", dir, err, out)
		}
	}
	return nil
}

// offline is the environment of every command run on the modules: no
// network, no workspace.
func offline() []string {
	return append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=readonly")
}

type runResult struct {
	stdout, stderr string
	code           int
}

// lockvet runs the binary in dir with args.
func lockvet(t *testing.T, dir string, args ...string) runResult {
	t.Helper()
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return command(t, dir, lockvetBin, args...)
}

func command(t *testing.T, dir, name string, args ...string) runResult {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = offline()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return runResult{stdout.String(), stderr.String(), code}
}

func (r runResult) wantCode(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

// A marker is a "// LV101: why" comment at the end of a line of the
// example module: a finding of that check is expected on that line.
type marker struct {
	file string // slash-separated, relative to the module root
	line int
	id   string
}

func (m marker) String() string { return fmt.Sprintf("%s:%d: %s", m.file, m.line, m.id) }

var markerRE = regexp.MustCompile(`^// (LV\d{3}): \S`)

// markerSet describes which markers a run is expected to report.
type markerSet struct {
	generated bool                 // include markers in generated files
	noTests   bool                 // leave out markers in _test.go files
	ids       func(id string) bool // the checks that run; nil means all registered
	under     string               // only files below this directory (slash path), "" for all
}

// markers reads the expected findings of the module in dir (readMarkers)
// and fails the test on a marker it cannot read.
func markers(t *testing.T, dir string, s markerSet) []marker {
	t.Helper()
	out, err := readMarkers(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// readMarkers reads the expected findings of the module in dir. A marker
// whose ID the registry does not know is an error: a check dropped from
// the registry must fail its expectations, not lose them.
func readMarkers(dir string, s markerSet) ([]marker, error) {
	var out []marker
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if s.under != "" && !strings.HasPrefix(rel, s.under+"/") {
			return nil
		}
		if s.noTests && strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) && !s.generated {
			return nil
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				m := markerRE.FindStringSubmatch(c.Text)
				if m == nil {
					continue
				}
				id, line := m[1], fset.Position(c.Pos()).Line
				if analyzer.Lookup(id) == nil {
					return fmt.Errorf("%s:%d: marker %s names no registered check", rel, line, id)
				}
				if s.ids != nil && !s.ids(id) {
					continue
				}
				out = append(out, marker{rel, line, id})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b marker) int { return strings.Compare(a.String(), b.String()) })
	return out, nil
}

// TestMarkersUnknownID: a marker of a check the registry does not know
// fails the run that reads it, and the others are still read.
func TestMarkersUnknownID(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nfunc f() {} // LV101: registered\n\nfunc g() {} // LV999: dropped from the registry\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readMarkers(dir, markerSet{}); err == nil || !strings.Contains(err.Error(), "p.go:5: marker LV999 names no registered check") {
		t.Errorf("readMarkers with an LV999 marker: err = %v", err)
	}
	if ms, err := readMarkers(dir, markerSet{under: "none"}); err != nil || len(ms) != 0 {
		t.Errorf("readMarkers of no file: %v, %v", ms, err)
	}
}

// textLineRE is one finding of the text output.
var textLineRE = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): (LV\d{3}): (\S.*)$`)

// relatedLineRE is a related position under a finding.
var relatedLineRE = regexp.MustCompile(`^\t(\S+\.go):(\d+):(\d+): (\S.*)$`)

// parseText checks the shape of text output and returns its findings as
// markers, in output order.
func parseText(t *testing.T, out string) []marker {
	t.Helper()
	var got []marker
	for line := range strings.Lines(out) {
		line = strings.TrimSuffix(line, "\n")
		if m := textLineRE.FindStringSubmatch(line); m != nil {
			var n int
			fmt.Sscan(m[2], &n)
			got = append(got, marker{m[1], n, m[4]})
			continue
		}
		if relatedLineRE.MatchString(line) && len(got) > 0 {
			continue
		}
		t.Errorf("unexpected output line %q", line)
	}
	return got
}

// sameMarkers compares findings with expectations and lists differences.
func sameMarkers(t *testing.T, got, want []marker) {
	t.Helper()
	got = slices.Clone(got)
	slices.SortFunc(got, func(a, b marker) int { return strings.Compare(a.String(), b.String()) })
	for _, m := range want {
		if i := slices.Index(got, m); i >= 0 {
			got = slices.Delete(got, i, i+1)
		} else {
			t.Errorf("missing finding %s", m)
		}
	}
	for _, m := range got {
		t.Errorf("unexpected finding %s (no marker on that line)", m)
	}
}

// copyTree copies the module in src to a new directory (moduleDir).
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := moduleDir(t)
	copyInto(t, src, dst)
	return dst
}

// copyInto copies the tree at src to dst.
func copyInto(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot is the content of every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		files[path[len(dir):]] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
