package driver_test

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
)

func TestMain(m *testing.M) { clitest.Main(m) }

// TestTestsAndGenerated: without tests the findings in _test.go files
// are left out; -include-generated adds the ones in generated files.
func TestTestsAndGenerated(t *testing.T) {
	t.Parallel()
	dir := clitest.ExampleDir()
	res := clitest.Analyze(t, dir, nil, false, "./...")
	clitest.SameMarkers(t, clitest.FindingMarkers(dir, res.Findings), clitest.Markers(t, dir, clitest.MarkerSet{NoTests: true}))

	res = clitest.Analyze(t, dir, &analyzer.Config{IncludeGenerated: true}, true, "./...")
	want := clitest.Markers(t, dir, clitest.MarkerSet{Generated: true})
	if len(want) == len(clitest.Markers(t, dir, clitest.MarkerSet{})) {
		t.Fatal("the example module has no marker in a generated file")
	}
	clitest.SameMarkers(t, clitest.FindingMarkers(dir, res.Findings), want)
}

// TestChecks: -checks and -disable select checks by ID or name (the
// flags as the command and go vet parse them); -redis-version selects
// fixes, not findings. The module is loaded once and analysed with each
// set of checks.
func TestChecks(t *testing.T) {
	t.Parallel()
	dir := clitest.ExampleDir()
	lock, err := analyzer.LockPackages(nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := driver.Load(dir, []string{"./..."}, true, lock)
	if err != nil {
		t.Fatal(err)
	}
	analyze := func(args ...string) []clitest.Marker {
		t.Helper()
		var cf driver.ConfigFlags
		fs := flag.NewFlagSet("lockvet", flag.ContinueOnError)
		cf.Register(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		analyzers, err := analyzer.Analyzers(cf.Config())
		if err != nil {
			t.Fatal(err)
		}
		res, err := l.Analyze(dir, analyzers)
		if err != nil {
			t.Fatal(err)
		}
		return clitest.FindingMarkers(dir, res.Findings)
	}
	rules := analyzer.Rules()
	first := rules[0]
	only := func(id string) bool { return id == first.ID }
	for _, arg := range []string{first.ID, first.Name, strings.ToLower(first.ID) + ",", "," + first.Name} {
		clitest.SameMarkers(t, analyze("-checks", arg), clitest.Markers(t, dir, clitest.MarkerSet{IDs: only}))
	}
	clitest.SameMarkers(t, analyze("-disable", first.ID), clitest.Markers(t, dir, clitest.MarkerSet{IDs: func(id string) bool { return !only(id) }}))
	clitest.SameMarkers(t, analyze("-redis-version", "8.4"), clitest.Markers(t, dir, clitest.MarkerSet{}))
}

// TestBrokenPackage: a package that does not type-check is one error line
// naming it and its first error; the other packages are still analysed.
func TestBrokenPackage(t *testing.T) {
	t.Parallel()
	dir := clitest.BrokenDir()
	res := clitest.Analyze(t, dir, nil, true, "./...")
	if len(res.Errors) != 1 || !strings.HasPrefix(res.Errors[0], "example.com/broken/bad: bad/bad.go:8:") || res.Broken != 1 {
		t.Errorf("errors %q, %d broken: want one line naming the package and its first error", res.Errors, res.Broken)
	}
	clitest.SameMarkers(t, clitest.FindingMarkers(dir, res.Findings), clitest.Markers(t, dir, clitest.MarkerSet{}))
}

// TestGuard: a panicking analyzer becomes an analysis error.
func TestGuard(t *testing.T) {
	_, pkg := clitest.LoadTemp(t, map[string]string{"p.go": "package p\n"})
	boom := &analysis.Analyzer{
		Name:     "boom",
		Doc:      "boom panics",
		Requires: []*analysis.Analyzer{inspect.Analyzer},
		Run:      func(*analysis.Pass) (any, error) { panic("kaboom") },
	}
	inspectRun := inspect.Analyzer.Run
	driver.Guard([]*analysis.Analyzer{boom})
	if reflectPointer(inspect.Analyzer.Run) != reflectPointer(inspectRun) {
		t.Error("guard changed an x/tools analyzer")
	}
	g, err := checker.Analyze([]*analysis.Analyzer{boom}, []*packages.Package{pkg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Roots[0].Err; err == nil || !strings.Contains(err.Error(), "internal error: kaboom") {
		t.Errorf("err = %v", err)
	}
}

func reflectPointer(f func(*analysis.Pass) (any, error)) uintptr {
	return reflect.ValueOf(f).Pointer()
}

// TestWrapperFlagsEveryCheck: with the Store's methods and two
// same-package functions declared by the wrapper flags (the declarations the analyzer
// package's tests make through analyzer.Config), every check reports
// through the wrappers exactly the findings its testdata under
// passes/testdata/wrappers/<check> expects.
func TestWrapperFlagsEveryCheck(t *testing.T) {
	t.Parallel()
	dir := clitest.PassesDir()
	const store = "lockvet.test/wrappers/store.Store"
	flags := []string{
		"-acquire-funcs", "(*" + store + ").TryLock:key=key,value=token,ttl=ttl;(*" + store + ").Acquire:key=1,value=2,ttl=3;" +
			"lockvet.test/wrappers/setnxexpire.grab:key=2,value=3,ttl=none;lockvet.test/wrappers/noexpire.grab:key=key,value=token,ttl=none",
		"-expire-funcs", "(*" + store + ").Touch:key=1,ttl=seconds,unit=seconds",
		"-release-funcs", "(*" + store + ").Unlock:key=1",
		"-safe-release-funcs", "(" + store + ").Release:key=key,value=token",
	}
	ids := map[string]string{} // check name → ID
	for _, r := range analyzer.Rules() {
		ids[r.Name] = r.ID
	}
	files, err := filepath.Glob(filepath.Join(dir, "wrappers", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var want []clitest.Marker
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, file)
		id := ids[filepath.Base(filepath.Dir(file))]
		for n, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "// want ") {
				want = append(want, clitest.Marker{File: filepath.ToSlash(rel), Line: n + 1, ID: id})
			}
		}
	}
	var cf driver.ConfigFlags
	fs := flag.NewFlagSet("lockvet", flag.ContinueOnError)
	cf.Register(fs)
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	res := clitest.Analyze(t, dir, cf.Config(), true, "./wrappers/...")
	var got []clitest.Marker
	for _, m := range clitest.FindingMarkers(dir, res.Findings) {
		if ids[filepath.Base(filepath.Dir(m.File))] == m.ID {
			got = append(got, m) // not another check's finding in this check's package
		}
	}
	if len(want) == 0 {
		t.Fatal("no expected findings in the testdata")
	}
	clitest.SameMarkers(t, got, want)
}
