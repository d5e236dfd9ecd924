// Package clitest has what the tests of the lockvet command's parts
// share: the example module and the test modules, the "// LV101: why"
// markers that say which findings they expect, analysing a module in
// the test's own process as the command does, module directories that
// compile once, and readers of the text, JSON and SARIF outputs. Tests
// only: no command imports it.
package clitest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/findings"
)

// Root is the repository's directory.
var Root = sync.OnceValue(func() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && bytes.HasPrefix(data, []byte("module github.com/lockvet/lockvet\n")) {
			return d
		}
		if filepath.Dir(d) == d {
			panic("clitest: no lockvet module above " + dir)
		}
	}
})

// The modules the tests analyse.
var (
	// ExampleDir is the example module (testdata/ at the repository
	// root, the module the README points at).
	ExampleDir = func() string { return filepath.Join(Root(), "testdata") }
	// BrokenDir is a module with a package that does not type-check.
	BrokenDir = func() string { return filepath.Join(Root(), "cmd", "lockvet", "testdata", "broken") }
	// XpkgDir is a module whose lock helpers are in another package than
	// their callers.
	XpkgDir = func() string { return filepath.Join(Root(), "cmd", "lockvet", "testdata", "xpkg") }
	// PassesDir is the analysistest module of the checks.
	PassesDir = func() string { return filepath.Join(Root(), "passes", "testdata") }
)

// Main runs a test binary's tests after Setup.
func Main(m *testing.M) {
	if err := Setup(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// Setup puts the modules the tests analyse into the module cache (go mod
// download), then makes every command the tests run, and every load in
// the test process, work offline (GOPROXY=off, no workspace,
// -mod=readonly), as a user's run on a module whose dependencies are
// downloaded.
func Setup() error {
	for _, dir := range []string{ExampleDir(), BrokenDir(), XpkgDir(), PassesDir()} {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go mod download in %s: %v\n%s", dir, err, out)
		}
	}
	for k, v := range map[string]string{"GOPROXY": "off", "GOWORK": "off", "GOFLAGS": "-mod=readonly"} {
		os.Setenv(k, v)
	}
	return nil
}

// RunResult is what a command printed and its exit status.
type RunResult struct {
	Stdout, Stderr string
	Code           int
}

// WantCode fails the test unless the command exited with code.
func (r RunResult) WantCode(t testing.TB, code int) {
	t.Helper()
	if r.Code != code {
		t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.Code, code, r.Stdout, r.Stderr)
	}
}

// Command runs name with args in dir, with extra environment variables.
func Command(t testing.TB, dir string, env []string, name string, args ...string) RunResult {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return RunResult{stdout.String(), stderr.String(), code}
}

// Git runs git in dir as a test user, and fails the test if it fails.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	args = append([]string{"-c", "user.name=lockvet test", "-c", "user.email=test@lockvet.invalid", "-c", "commit.gpgsign=false"}, args...)
	if r := Command(t, dir, nil, "git", args...); r.Code != 0 {
		t.Fatalf("git %s: %s%s", strings.Join(args, " "), r.Stdout, r.Stderr)
	}
}

// Analyze analyses patterns in dir in the test's process as the lockvet
// command does, with the checks cfg configures (all when nil), and
// fails the test when nothing could be loaded.
func Analyze(t testing.TB, dir string, cfg *analyzer.Config, tests bool, patterns ...string) *findings.Result {
	t.Helper()
	analyzers, err := analyzer.Analyzers(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := analyzer.LockPackages(cfg)
	if err != nil {
		t.Fatal(err)
	}
	driver.Guard(analyzers)
	res, err := driver.Analyze(dir, patterns, tests, analyzers, lock)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*cached{}
)

type cached struct {
	once sync.Once
	res  *findings.Result
	err  error
}

// Cached is the result of every check on patterns in dir, test files
// included, analysed once per test binary: the outputs' tests format the
// same result many ways. Tests must not change it.
func Cached(t testing.TB, dir string, patterns ...string) *findings.Result {
	t.Helper()
	key := dir + "\x00" + strings.Join(patterns, "\x00")
	cacheMu.Lock()
	c := cache[key]
	if c == nil {
		c = &cached{}
		cache[key] = c
	}
	cacheMu.Unlock()
	c.once.Do(func() {
		analyzers, err := analyzer.Analyzers(nil)
		if err != nil {
			c.err = err
			return
		}
		lock, _ := analyzer.LockPackages(nil)
		driver.Guard(analyzers)
		c.res, c.err = driver.Analyze(dir, patterns, true, analyzers, lock)
	})
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c.res
}

// Example is Cached on the example module's ./... .
func Example(t testing.TB) *findings.Result {
	t.Helper()
	return Cached(t, ExampleDir(), "./...")
}

// FindingMarkers are findings as Markers, their files relative to dir.
func FindingMarkers(dir string, fs []*findings.Finding) []Marker {
	var out []Marker
	for _, f := range fs {
		rel, _ := filepath.Rel(dir, f.Posn.Filename)
		out = append(out, Marker{filepath.ToSlash(rel), f.Posn.Line, f.Rule()})
	}
	return out
}

// LoadTemp writes files into a new module example.com/p and loads it as
// the driver does.
func LoadTemp(t testing.TB, files map[string]string) (string, *packages.Package) {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/p\n\ngo 1.26\n"
	WriteFiles(t, dir, files)
	l, err := driver.Load(dir, []string{"."}, false, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Roots) != 1 || len(l.Roots[0].Errors) > 0 {
		t.Fatalf("load: %v", l.Roots)
	}
	return dir, l.Roots[0]
}

// WriteFiles writes files (slash-separated names) below dir.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
