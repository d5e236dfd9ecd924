package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/output"
	"github.com/lockvet/lockvet/internal/redistest"
)

// Bad and unusual input: lockvet must say clearly what is wrong, exit 2
// when something could not be analyzed, never crash, and analyze what it
// can. Cases covered elsewhere: type errors and a pattern matching
// nothing (TestExitCodes), generated files and -include-generated, test
// files and -test=false (TestTestsAndGenerated).

// badModule writes files into a new module example.com/bad that requires
// go-redis v9 (go.mod and go.sum as in testdata/broken) and returns its
// directory (moduleDir).
func badModule(t *testing.T, files map[string]string) string {
	t.Helper()
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	dir := clitest.ModuleDir(t)
	gomod, err := os.ReadFile(filepath.Join(brokenDir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gosum, err := os.ReadFile(filepath.Join(brokenDir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.mod"] = strings.Replace(string(gomod), "module example.com/broken", "module example.com/bad", 1)
	files["go.sum"] = string(gosum)
	clitest.WriteFiles(t, dir, files)
	return dir
}

// noCrash fails when a run's stderr shows a panic.
func noCrash(t *testing.T, r clitest.RunResult) {
	t.Helper()
	for _, s := range []string{"panic:", "goroutine ", "internal error", "fatal error:"} {
		if strings.Contains(r.Stderr, s) {
			t.Fatalf("lockvet crashed:\n%s", r.Stderr)
		}
	}
}

// lockFunc is a SETNX-then-EXPIRE lock (LV101, with a fix) named name;
// marker is appended to the EXPIRE line.
func lockFunc(name, marker string) string {
	return fmt.Sprintf(`
func %s(ctx context.Context, rdb *redis.Client, key, token string) (bool, error) {
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil || !ok {
		return ok, err
	}
	rdb.Expire(ctx, key, time.Minute)%s
	return true, nil
}
`, name, marker)
}

const lockImports = `
import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)
`

// TestNoModule: a directory outside any module is an error that says so.
func TestNoModule(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := lockvetEnv(t, dir, []string{"GOFLAGS=", "GO111MODULE=on"}, "./...")
	r.WantCode(t, driver.ExitError)
	noCrash(t, r)
	if !strings.Contains(r.Stderr, "no go.mod in "+dir+" or any parent") {
		t.Errorf("stderr does not say there is no module:\n%s", r.Stderr)
	}
}

// TestEmptyModule: a module without packages matches nothing.
func TestEmptyModule(t *testing.T) {
	t.Parallel()
	dir := badModule(t, map[string]string{"README": "no Go here\n"})
	r := lockvet(t, dir, "./...")
	r.WantCode(t, driver.ExitError)
	noCrash(t, r)
	if strings.TrimSpace(r.Stderr) != "lockvet: ./... matched no packages" {
		t.Errorf("stderr = %q", r.Stderr)
	}
}

// TestBrokenTestFile: a type error in a test file is reported, and the
// package's own files are still analyzed.
func TestBrokenTestFile(t *testing.T) {
	t.Parallel()
	dir := badModule(t, map[string]string{
		"p/p.go":      "package p\n" + lockImports + lockFunc("tryLock", " // LV101: reported despite the broken test"),
		"p/p_test.go": "package p\n\nvar n int = \"one\"\n",
	})
	r := lockvet(t, dir, "./...")
	r.WantCode(t, driver.ExitError)
	noCrash(t, r)
	if !strings.Contains(r.Stderr, "p/p_test.go:3:") {
		t.Errorf("the test file's error is not named:\n%s", r.Stderr)
	}
	if hint := "lockvet: hint: example.com/bad/p does not compile with its test files; its other files were analyzed, and -test=false leaves test files out\n"; !strings.Contains(r.Stderr, hint) {
		t.Errorf("no hint naming -test=false:\n%s", r.Stderr)
	}
	clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), clitest.Markers(t, dir, clitest.MarkerSet{}))

	r = lockvet(t, dir, "-test=false", "./...")
	r.WantCode(t, driver.ExitFindings)
	if r.Stderr != "" {
		t.Errorf("-test=false: %s", r.Stderr)
	}
}

// TestUnloadableDependency: when the go command cannot get a module (here
// because GOPROXY=off, as when the proxy refuses it), lockvet says what
// the go command says, the failing module and its error, in text and in
// -json (a JSON error object in go vet -json's tree), with exit status 2.
func TestUnloadableDependency(t *testing.T) {
	t.Parallel()
	const missing = "github.com/lockvet/does-not-exist"
	const refused = "module lookup disabled by GOPROXY=off"
	sum := missing + " v1.0.0 h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n" + missing + " v1.0.0/go.mod h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
	for _, tc := range []struct {
		name, goVersion, jsonKey, jsonErr string
	}{
		// An unpruned module graph (go 1.16): the go command cannot even
		// list the packages.
		{"graph", "1.16", "./internal/...", "go: " + missing + "@v1.0.0: " + refused},
		// A pruned graph: the package that imports the module fails, and
		// its JSON error is the go command's, not the type checker's
		// "could not import".
		{"import", "1.26.0", "example.com/refused/internal/a", "dependency " + missing + ": internal/a/a.go:3:8: " + refused},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := clitest.ModuleDir(t)
			clitest.WriteFiles(t, dir, map[string]string{
				"go.mod":          "module example.com/refused\n\ngo " + tc.goVersion + "\n\nrequire " + missing + " v1.0.0\n",
				"go.sum":          sum,
				"internal/a/a.go": "package a\n\nimport _ \"" + missing + "\"\n",
			})
			r := lockvet(t, dir, "./internal/...")
			r.WantCode(t, driver.ExitError)
			noCrash(t, r)
			if !strings.Contains(r.Stderr, refused) {
				t.Errorf("text: the go command's reason is missing:\n%s", r.Stderr)
			}
			if strings.Contains(r.Stderr, "matched no packages") || strings.Contains(r.Stderr, "exit status") {
				t.Errorf("text: %s", r.Stderr)
			}
			r = lockvet(t, dir, "-json", "./internal/...")
			r.WantCode(t, driver.ExitError)
			var tree map[string]map[string]struct {
				Error string `json:"error"`
			}
			if err := json.Unmarshal([]byte(r.Stdout), &tree); err != nil || len(tree) != 1 {
				t.Fatalf("-json: %v\n%s", err, r.Stdout)
			}
			for _, e := range tree[tc.jsonKey] {
				if e.Error != tc.jsonErr {
					t.Errorf("-json error %q, want %q", e.Error, tc.jsonErr)
				}
			}
			if len(tree[tc.jsonKey]) == 0 {
				t.Errorf("-json: no error under %q: %s", tc.jsonKey, r.Stdout)
			}
		})
	}
}

// TestLineDirectives: findings are reported where //line directives say
// (as the compiler and go vet do), while fixes edit the file the bytes
// are in.
func TestLineDirectives(t *testing.T) {
	t.Parallel()
	src := "package tmpl\n" + lockImports + "\n//line lock.tmpl:100\n" + lockFunc("tryLock", "")
	dir := badModule(t, map[string]string{"tmpl/tmpl.go": src})
	r := lockvet(t, dir, "./...")
	r.WantCode(t, driver.ExitFindings)
	noCrash(t, r)
	if !strings.HasPrefix(r.Stdout, "tmpl/lock.tmpl:106:") {
		t.Errorf("finding not at the //line position:\n%s", r.Stdout)
	}

	r = lockvet(t, dir, "-json", "./...")
	r.WantCode(t, driver.ExitClean)
	var edits int
	var tree map[string]map[string][]clitest.JSONDiag
	if err := json.Unmarshal([]byte(r.Stdout), &tree); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	for _, byAnalyzer := range tree {
		for _, diags := range byAnalyzer {
			for _, d := range diags {
				for _, f := range d.SuggestedFixes {
					for _, e := range f.Edits {
						edits++
						if e.Filename != filepath.Join(dir, "tmpl", "tmpl.go") {
							t.Errorf("edit in %s, want tmpl/tmpl.go", e.Filename)
						}
						if *e.End > len(src) {
							t.Errorf("edit offset %d past the end of the file", *e.End)
						}
					}
				}
			}
		}
	}
	if edits == 0 {
		t.Fatalf("no fix to check:\n%s", r.Stdout)
	}

	// SARIF and GitHub annotations: the finding where //line says, as in
	// -json, its column (which a //line without one leaves unknown) the
	// file's own; SARIF's fix edits, like -json's, in tmpl.go at its own
	// lines.
	lineOf := func(code string) int { return strings.Count(src[:strings.Index(src, code)], "\n") + 1 }
	r = lockvet(t, dir, "-format", "sarif", "./...")
	r.WantCode(t, driver.ExitFindings)
	results := clitest.ParseSARIF(t, r.Stdout).Runs[0].Results
	if len(results) != 1 || results[0].Marker(t, output.SrcRoot(dir), dir) != (clitest.Marker{File: "tmpl/lock.tmpl", Line: 106, ID: "LV101"}) {
		t.Fatalf("SARIF results: %+v", results)
	}
	if got, want := sarifEdits(t, results[0]), []string{fmt.Sprintf("tmpl/tmpl.go:%d", lineOf("rdb.SetNX")), fmt.Sprintf("tmpl/tmpl.go:%d", lineOf("rdb.Expire"))}; !slices.Equal(got, want) {
		t.Errorf("SARIF fix edits at %v, want %v", got, want)
	}
	r = lockvet(t, dir, "-format", "github", "./...")
	r.WantCode(t, driver.ExitFindings)
	if !strings.HasPrefix(r.Stdout, "::error file=tmpl/lock.tmpl,line=106,col=2,") {
		t.Errorf("-format github: annotation not at the //line position:\n%s", r.Stdout)
	}

	r = lockvet(t, dir, "-diff", "./...")
	r.WantCode(t, driver.ExitFindings)
	if !strings.Contains(r.Stdout, "+++ b/tmpl/tmpl.go") {
		t.Errorf("-diff does not change tmpl/tmpl.go:\n%s", r.Stdout)
	}
	r = lockvet(t, dir, "-fix", "./...")
	noCrash(t, r)
	fixed, err := os.ReadFile(filepath.Join(dir, "tmpl", "tmpl.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(fixed), "//line lock.tmpl:100") || strings.Contains(string(fixed), "rdb.Expire") {
		t.Errorf("-fix did not fix tmpl.go in place:\n%s", fixed)
	}
	if _, err := os.Stat(filepath.Join(dir, "tmpl", "lock.tmpl")); err == nil {
		t.Error("-fix wrote the file a //line directive names")
	}
	command(t, dir, "go", "vet", "./...").WantCode(t, 0)
}

// sarifEdits lists where the fixes of a SARIF result delete or insert,
// as file:line, the file relative to the module (%SRCROOT% is the module
// in these tests).
func sarifEdits(t *testing.T, r clitest.SARIFResult) []string {
	t.Helper()
	var out []string
	for _, fix := range r.Fixes {
		for _, ch := range fix.ArtifactChanges {
			for _, raw := range ch.Replacements {
				var rep struct {
					DeletedRegion struct {
						StartLine int `json:"startLine"`
					} `json:"deletedRegion"`
				}
				if err := json.Unmarshal(raw, &rep); err != nil {
					t.Fatal(err)
				}
				out = append(out, fmt.Sprintf("%s:%d", ch.ArtifactLocation.URI, rep.DeletedRegion.StartLine))
			}
		}
	}
	return out
}

// cgoModule has a package with a cgo file and a plain file, each with a
// lock bug.
func cgoModule(t *testing.T) string {
	return badModule(t, map[string]string{
		"cg/cg.go": `package cg

// static int twice(int x) { return 2 * x; }
import "C"
` + lockImports + `
// Twice calls C.
func Twice(x int) int { return int(C.twice(C.int(x))) }
` + lockFunc("tryLockC", " // LV101: in a cgo file"),
		"cg/plain.go": "package cg\n" + lockImports + lockFunc("tryLock", " // LV101: in a plain file"),
	})
}

// TestCgo: lock code in a cgo file is analyzed (the go command translates
// it, running the C compiler, which is all go list runs) and reported at
// its place in the user's file; its fix is not offered, since the syntax
// analyzed is cgo's translation in the build cache. Without a C compiler
// it skips, except in CI (LOCKVET_REQUIRE_REDIS=1), which installs gcc.
func TestCgo(t *testing.T) {
	t.Parallel()
	if why := noCCompiler(goEnv(t, "CC")); why != "" {
		if redistest.Required() {
			t.Fatalf("%s; CI (LOCKVET_REQUIRE_REDIS=1) installs gcc, so this is a failure", why)
		}
		t.Skipf("%s: install gcc to run this test", why)
	}
	dir := cgoModule(t)
	r := lockvetEnv(t, dir, []string{"CGO_ENABLED=1"}, "./...")
	r.WantCode(t, driver.ExitFindings)
	noCrash(t, r)
	clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), clitest.Markers(t, dir, clitest.MarkerSet{}))

	r = lockvetEnv(t, dir, []string{"CGO_ENABLED=1"}, "-json", "./...")
	r.WantCode(t, driver.ExitClean)
	if strings.Contains(r.Stdout, "go-build") {
		t.Errorf("-json names a file in the build cache:\n%s", r.Stdout)
	}

	// SARIF offers the plain file's fix and not the cgo file's; neither
	// SARIF nor the GitHub annotations name the build cache.
	r = lockvetEnv(t, dir, []string{"CGO_ENABLED=1"}, "-format", "sarif", "./...")
	r.WantCode(t, driver.ExitFindings)
	for _, res := range clitest.ParseSARIF(t, r.Stdout).Runs[0].Results {
		m, edits := res.Marker(t, output.SrcRoot(dir), dir), sarifEdits(t, res)
		if m.File == "cg/cg.go" && len(edits) > 0 || m.File == "cg/plain.go" && len(edits) == 0 {
			t.Errorf("SARIF fix edits of the finding in %s: %v", m.File, edits)
		}
		for _, e := range edits {
			if !strings.HasPrefix(e, m.File+":") {
				t.Errorf("SARIF fix of the finding in %s edits %s", m.File, e)
			}
		}
	}
	for _, format := range []string{"sarif", "github"} {
		r = lockvetEnv(t, dir, []string{"CGO_ENABLED=1"}, "-format", format, "./...")
		r.WantCode(t, driver.ExitFindings)
		if strings.Contains(r.Stdout, "go-build") {
			t.Errorf("-format %s names a file in the build cache:\n%s", format, r.Stdout)
		}
	}

	before := clitest.Snapshot(t, dir)
	r = lockvetEnv(t, dir, []string{"CGO_ENABLED=1"}, "-fix", "./...")
	noCrash(t, r)
	after := clitest.Snapshot(t, dir)
	if after["/cg/cg.go"] != before["/cg/cg.go"] {
		t.Errorf("-fix changed the cgo file:\n%s", after["/cg/cg.go"])
	}
	if after["/cg/plain.go"] == before["/cg/plain.go"] {
		t.Error("-fix did not fix the plain file")
	}
	// What is left is the cgo file's finding.
	if got := clitest.ParseText(t, r.Stdout); len(got) != 1 || got[0].File != "cg/cg.go" {
		t.Errorf("after -fix: %v", got)
	}
}

// TestCgoDisabled: with CGO_ENABLED=0 in the environment go list runs no
// C compiler; cgo files are left out as the build leaves them out, and
// the rest of the package is analyzed.
func TestCgoDisabled(t *testing.T) {
	t.Parallel()
	needSlow(t, "compiles the standard library and go-redis again with CGO_ENABLED=0")
	dir := cgoModule(t)
	r := lockvetEnv(t, dir, []string{"CGO_ENABLED=0", "CC=/nonexistent/cc"}, "./...")
	r.WantCode(t, driver.ExitFindings)
	noCrash(t, r)
	got := clitest.ParseText(t, r.Stdout)
	if len(got) != 1 || got[0].File != "cg/plain.go" {
		t.Errorf("want only the plain file's finding, got %v\n%s", got, r.Stderr)
	}
}

// noCCompiler says why there is no C compiler for cgo, given go env CC,
// or "" when there is one.
func noCCompiler(cc string) string {
	fields := strings.Fields(strings.TrimSpace(cc))
	if len(fields) == 0 {
		return "no C compiler configured (go env CC is empty)"
	}
	if _, err := exec.LookPath(fields[0]); err != nil {
		return fmt.Sprintf("no C compiler: %v", err)
	}
	return ""
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestGenerics: generic functions and generic wrappers around clients
// (type parameters constrained by redis.Cmdable or UniversalClient).
func TestGenerics(t *testing.T) {
	t.Parallel()
	dir := badModule(t, map[string]string{"gen/gen.go": `package gen
` + lockImports + `
func tryLock[C redis.Cmdable](ctx context.Context, c C, key, token string) (bool, error) {
	ok, err := c.SetNX(ctx, key, token, 0).Result()
	if err != nil || !ok {
		return ok, err
	}
	c.Expire(ctx, key, time.Minute) // LV101: through a type parameter
	return true, nil
}

// Locker is generic in its client.
type Locker[C redis.UniversalClient] struct {
	c   C
	key string
}

func (l *Locker[C]) Lock(ctx context.Context, token string) (bool, error) {
	ok, err := l.c.SetNX(ctx, l.key, token, 0).Result()
	if err != nil || !ok {
		return ok, err
	}
	l.c.Expire(ctx, l.key, time.Minute) // LV101: in a generic type's method
	return true, nil
}

// WithLock is a generic helper with a correct lock.
func WithLock[T any](ctx context.Context, rdb *redis.Client, key, token string, f func() (T, error)) (T, error) {
	var zero T
	ok, err := rdb.SetNX(ctx, key, token, time.Minute).Result()
	if err != nil || !ok {
		return zero, err
	}
	return f()
}

// Map has nothing to do with locks.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

var (
	_ = tryLock[*redis.Client]
	_ = (&Locker[*redis.ClusterClient]{}).Lock
	_ = WithLock[int]
	_ = Map[int, string]
)
`})
	r := lockvet(t, dir, "./...")
	r.WantCode(t, driver.ExitFindings)
	noCrash(t, r)
	clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), clitest.Markers(t, dir, clitest.MarkerSet{}))
}

// TestBuildTags: files excluded by build constraints are not analyzed;
// tags set through GOFLAGS select them, as for go build.
func TestBuildTags(t *testing.T) {
	t.Parallel()
	dir := badModule(t, map[string]string{
		"p/p.go":     "package p\n" + lockImports + lockFunc("tryLock", " // LV101: always built"),
		"p/extra.go": "//go:build lockvet_extra\n\npackage p\n" + lockImports + lockFunc("tryLockExtra", ""),
		"p/other.go": "//go:build !linux && !darwin && !windows && !freebsd\n\npackage p\n\nvar broken int = \"never type-checked on this OS\"\n",
	})
	r := lockvet(t, dir, "./...")
	r.WantCode(t, driver.ExitFindings)
	noCrash(t, r)
	clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), clitest.Markers(t, dir, clitest.MarkerSet{}))

	r = lockvetEnv(t, dir, []string{"GOFLAGS=-mod=readonly -tags=lockvet_extra"}, "./...")
	r.WantCode(t, driver.ExitFindings)
	if got := clitest.ParseText(t, r.Stdout); len(got) != 2 || got[0].File != "p/extra.go" {
		t.Errorf("with -tags=lockvet_extra: %v", got)
	}
}

// TestTestPackages: lock code in test files, of the package itself and of
// its external test package, is analyzed, each finding reported once;
// -test=false leaves both out.
func TestTestPackages(t *testing.T) {
	t.Parallel()
	dir := badModule(t, map[string]string{
		"p/p.go":      "package p\n\n// N is used by the tests.\nconst N = 1\n",
		"p/p_test.go": "package p\n" + lockImports + lockFunc("tryLockInternal", " // LV101: internal test file"),
		"p/x_test.go": "package p_test\n" + strings.Replace(lockImports, "\"time\"\n", "\"time\"\n\n\t\"example.com/bad/p\"\n", 1) +
			"\nvar _ = p.N\n" + lockFunc("tryLockExternal", " // LV101: external test package"),
	})
	r := lockvet(t, dir, "./...")
	r.WantCode(t, driver.ExitFindings)
	noCrash(t, r)
	clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), clitest.Markers(t, dir, clitest.MarkerSet{}))

	r = lockvet(t, dir, "-test=false", "./...")
	r.WantCode(t, driver.ExitClean)
	if r.Stdout != "" || r.Stderr != "" {
		t.Errorf("-test=false printed:\n%s%s", r.Stdout, r.Stderr)
	}
}

// TestSafety: lockvet writes nothing without -fix (no file in the module
// changes, none is created), runs with the network unreachable (in a new
// network namespace where the machine allows one) and runs none of the
// analyzed code (an init that would create a file does not run).
func TestSafety(t *testing.T) {
	t.Parallel()
	dir := badModule(t, map[string]string{
		"p/p.go": "package p\n" + lockImports + lockFunc("tryLock", "") + `
func init() {
	os.WriteFile("RAN", nil, 0o644)
}
`,
		"p/p_test.go": "package p\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestMain(m *testing.M) {\n\tos.WriteFile(\"RAN\", nil, 0o644)\n\tos.Exit(m.Run())\n}\n",
	})
	src := filepath.Join(dir, "p", "p.go")
	data, _ := os.ReadFile(src)
	os.WriteFile(src, []byte(strings.Replace(string(data), "import (\n", "import (\n\t\"os\"\n", 1)), 0o644)

	// A git repository whose index is stale (a file touched since it was
	// added), for -new-from-rev: git diff would refresh the index, a write.
	git := false
	if _, err := exec.LookPath("git"); err == nil {
		git = true
		clitest.Git(t, dir, "init", "-q", "-b", "main")
		clitest.Git(t, dir, "add", ".")
		clitest.Git(t, dir, "commit", "-q", "-m", "safety")
		later := time.Now().Add(time.Hour)
		if err := os.Chtimes(src, later, later); err != nil {
			t.Fatal(err)
		}
	}

	before := clitest.Snapshot(t, dir)
	var prefix []string
	if exec.Command("unshare", "-n", "true").Run() == nil {
		prefix = []string{"unshare", "-n"}
	} else {
		t.Log("no network namespace here: running with GOPROXY=off only")
	}
	runs := [][]string{{"./..."}, {"-json", "./..."}, {"-diff", "./..."}, {"-format", "sarif", "./..."}, {"-format", "github", "./..."}}
	if git {
		runs = append(runs, []string{"-new-from-rev", "HEAD~0", "-v", "./..."})
	}
	for _, args := range runs {
		argv := append(append(append([]string{}, prefix...), lockvetBin), args...)
		r := command(t, dir, argv[0], argv[1:]...)
		noCrash(t, r)
		if r.Code != driver.ExitFindings && !(args[0] == "-json" && r.Code == driver.ExitClean) &&
			!(args[0] == "-new-from-rev" && r.Code == driver.ExitClean) {
			t.Fatalf("%v: exit %d\n%s", argv, r.Code, r.Stderr)
		}
	}
	after := clitest.Snapshot(t, dir)
	clitest.SameFiles(t, before, after)

	// -write-baseline writes the file it names, and nothing else.
	base := filepath.Join(t.TempDir(), "base.json")
	lockvet(t, dir, "-write-baseline", base, "./...").WantCode(t, driver.ExitClean)
	if _, err := os.Stat(base); err != nil {
		t.Errorf("-write-baseline: %v", err)
	}
	clitest.SameFiles(t, before, clitest.Snapshot(t, dir))
}

// TestLongFunction: a function of more than 5,000 statements with lock
// code at both ends is analyzed in work linear in its size. The work is
// counted, not timed: lockvet is built with coverage counters on its own
// packages and the statements executed are summed, for the function at
// 1x and at 4x its size.
func TestLongFunction(t *testing.T) {
	t.Parallel()
	needSlow(t, "builds lockvet with coverage counters and compiles generated packages of thousands of lines")
	const blocks = 1300 // four statements each
	gen := func(n int) string {
		var b strings.Builder
		b.WriteString("package long\n" + lockImports + `
func long(ctx context.Context, rdb *redis.Client, key, token string) (int, error) {
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil || !ok {
		return 0, err
	}
	n := 0
	var s []string
`)
		for i := range n {
			fmt.Fprintf(&b, "\tv%d := len(token) + %d\n\tif v%d > 10 {\n\t\tn += v%d\n\t}\n\ts = append(s, token)\n", i, i, i, i)
		}
		b.WriteString(`	rdb.Expire(ctx, key, time.Minute) // LV101: at the end of a long function
	return n + len(s), nil
}
`)
		return b.String()
	}
	ratio := workRatio(t, map[string]string{"long/long.go": gen(blocks)}, map[string]string{"long/long.go": gen(4 * blocks)})
	if ratio > 6 {
		t.Errorf("4x the statements cost %.1fx the work: superlinear", ratio)
	}
}

// TestLongLockFunction: the same with lock code all through the function
// (a lock, a renewal and a check-then-delete per block, each with a finding
// and most with a fix): every operation is paired, flowed and fixed in
// work that does not grow with the rest of the function, so 4x the blocks
// cost about 4x the work (4.0x when this was written; it was 16x while
// each fix and each acquire's flow walked the whole function).
func TestLongLockFunction(t *testing.T) {
	t.Parallel()
	needSlow(t, "builds lockvet with coverage counters and compiles generated packages of thousands of lines")
	gen := func(n int) string {
		var b strings.Builder
		b.WriteString("package long\n" + lockImports + "\nfunc long(ctx context.Context, rdb *redis.Client, token string) error {\n")
		for i := range n {
			k := strconv.Quote(fmt.Sprintf("lock:%d", i))
			fmt.Fprintf(&b, "\tok%d, err%d := rdb.SetNX(ctx, %s, token, 0).Result()\n\tif err%d != nil {\n\t\treturn err%d\n\t}\n", i, i, k, i, i)
			fmt.Fprintf(&b, "\tif ok%d {\n\t\trdb.Expire(ctx, %s, time.Minute)\n\t}\n", i, k)
			fmt.Fprintf(&b, "\tif rdb.Get(ctx, %s).Val() == token {\n\t\trdb.Del(ctx, %s)\n\t}\n", k, k)
		}
		b.WriteString("\treturn nil\n}\n")
		return b.String()
	}
	ratio := workRatio(t, map[string]string{"long/long.go": gen(100)}, map[string]string{"long/long.go": gen(400)})
	if ratio > 4.6 {
		t.Errorf("4x the lock code cost %.1fx the work: superlinear", ratio)
	}
}

// workRatio analyzes the module files small, then big (paths to contents,
// go.mod and go.sum added), with a lockvet built with coverage counters,
// and returns the ratio of the statements lockvet's own code executed.
func workRatio(t *testing.T, small, big map[string]string) float64 {
	t.Helper()
	bin := coverBinary(t)
	var work [2]int64
	for i, files := range []map[string]string{small, big} {
		n, lines := len(files), 0
		for _, src := range files {
			lines += strings.Count(src, "\n")
		}
		dir := badModule(t, files) // adds go.mod and go.sum to files
		cov := t.TempDir()
		cmd := exec.Command(bin, "-v", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOCOVERDIR="+cov)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if ee := (*exec.ExitError)(nil); err != nil && (!errors.As(err, &ee) || ee.ExitCode() != driver.ExitFindings) {
			t.Fatalf("lockvet: %v\n%s", err, stderr.String())
		}
		work[i] = coveredWork(t, cov)
		t.Logf("%d files, %d lines: %d statements executed; %s", n, lines, work[i], strings.TrimSpace(stderr.String()))
	}
	return float64(work[1]) / float64(work[0])
}

// TestManyLockFiles: a package of many files of lock code, each with
// findings whose fixes declare package-level script variables, import
// pruning and a suppression, is analyzed in work linear in its size:
// nothing per finding or per fix walks the whole package (its files,
// declarations or comments).
func TestManyLockFiles(t *testing.T) {
	t.Parallel()
	needSlow(t, "builds lockvet with coverage counters and compiles generated packages of thousands of lines")
	gen := func(n int) map[string]string {
		files := map[string]string{}
		for i := range n {
			var b strings.Builder
			b.WriteString("package many\n" + lockImports)
			b.WriteString(lockFunc(fmt.Sprintf("acquire%d", i), ""))
			fmt.Fprintf(&b, `
func release%[1]d(ctx context.Context, rdb *redis.Client, key, token string) {
	if ok, _ := rdb.SetNX(ctx, key, token, time.Minute).Result(); !ok {
		return
	}
	rdb.Del(ctx, key)
}

func keepAlive%[1]d(ctx context.Context, rdb *redis.Client, key, token string, tick <-chan time.Time) {
	if ok, _ := rdb.SetNX(ctx, key, token, 20*time.Second).Result(); !ok {
		return
	}
	for range tick {
		rdb.Expire(ctx, key, 20*time.Second)
	}
}

func tiny%[1]d(ctx context.Context, rdb *redis.Client, key, token string) bool {
	//lockvet:ignore LV104 -- generated test code
	return rdb.SetNX(ctx, key, token, 30).Val()
}
`, i)
			files[fmt.Sprintf("many/f%03d.go", i)] = b.String()
		}
		return files
	}
	// 7.9x when this was written; 10.2x while each fix scanned the
	// package's files and declarations and each finding its directives.
	ratio := workRatio(t, gen(16), gen(128))
	if ratio > 9.2 {
		t.Errorf("8x the files cost %.1fx the work: superlinear", ratio)
	}
}

// coverBinary builds lockvet with counters in its own packages, once for
// the tests that ask for it (parallel tests: each building it on its own
// compiled every package with counters up to three times at once).
func coverBinary(t *testing.T) string {
	t.Helper()
	coverOnce.Do(func() {
		bin := filepath.Join(filepath.Dir(lockvetBin), "lockvet-cover")
		out, err := exec.Command("go", "build", "-cover", "-covermode=count", "-coverpkg=github.com/lockvet/lockvet/...", "-o", bin, ".").CombinedOutput()
		if err != nil {
			coverErr = fmt.Errorf("go build -cover: %v\n%s", err, out)
			return
		}
		coverBin = bin
	})
	if coverErr != nil {
		t.Fatal(coverErr)
	}
	return coverBin
}

var (
	coverOnce sync.Once
	coverBin  string
	coverErr  error
)

// coveredWork sums statements × executions over the counters in dir.
func coveredWork(t *testing.T, dir string) int64 {
	t.Helper()
	txt := filepath.Join(dir, "cover.txt")
	if out, err := exec.Command("go", "tool", "covdata", "textfmt", "-i", dir, "-o", txt).CombinedOutput(); err != nil {
		t.Fatalf("go tool covdata: %v\n%s", err, out)
	}
	data, err := os.ReadFile(txt)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) != 3 || strings.HasPrefix(line, "mode:") {
			continue
		}
		stmts, _ := strconv.ParseInt(f[1], 10, 64)
		count, _ := strconv.ParseInt(f[2], 10, 64)
		sum += stmts * count
	}
	if sum == 0 {
		t.Fatal("no coverage counted")
	}
	return sum
}
