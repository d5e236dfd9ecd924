package analyzer_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/factgraph"
	"github.com/lockvet/lockvet/internal/onceload"
)

// The wrappers testdata (passes/testdata/wrappers) is an in-house Store
// around go-redis and its callers, one package per check. These tests
// declare the Store's methods (and two same-package functions) through
// analyzer.Config, as the CLI flags and golangci settings do, and check
// that every check reports through them, without fixes; and that with no
// declaration nothing is reported.

const storeType = "lockvet.test/wrappers/store.Store"

var wrapperConfig = analyzer.Config{
	AcquireFuncs: []string{
		"(*" + storeType + ").TryLock:key=key,value=token,ttl=ttl",
		"(*" + storeType + ").Acquire:key=1,value=2,ttl=3",
		"lockvet.test/wrappers/setnxexpire.grab:key=2,value=3,ttl=none; lockvet.test/wrappers/noexpire.grab:key=key,value=token,ttl=none",
	},
	ExpireFuncs:      []string{"(*" + storeType + ").Touch:key=1,ttl=seconds,unit=seconds"},
	ReleaseFuncs:     []string{"(*" + storeType + ").Unlock:key=1"},
	SafeReleaseFuncs: []string{"(" + storeType + ").Release:key=key,value=token"}, // the value-receiver form matches too
}

var (
	dlOnce sync.Once
	dlErr  error
	dlOut  []byte
)

// testData is passes/testdata with its modules downloaded.
func testData(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "passes", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	dlOnce.Do(func() {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		dlOut, dlErr = cmd.CombinedOutput()
	})
	if dlErr != nil {
		t.Fatalf("go mod download in %s: %v\n%s", dir, dlErr, dlOut)
	}
	return dir
}

func TestDeclaredWrappers(t *testing.T) {
	t.Parallel()
	dir := testData(t)
	checks := []string{"setnxexpire", "ttlunit", "noexpire", "acquireresult", "outlive", "unsafeunlock", "unsaferenew", "constvalue"}
	cfg := wrapperConfig
	cfg.Checks = checks
	as, err := analyzer.Analyzers(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != len(checks) {
		t.Fatalf("got %d analyzers for the %d checks %v", len(as), len(checks), checks)
	}
	// Each check on its own packages, as analysistest.Run would check
	// it, over one load of them all (onceload).
	var cases []onceload.Case
	for _, a := range as {
		cases = append(cases, onceload.Case{Analyzer: a, Patterns: []string{"./wrappers/" + a.Name + "/..."}})
	}
	for i, results := range onceload.Run(t, dir, cases...) {
		n := 0
		for _, r := range results {
			for _, d := range r.Diagnostics {
				n++
				if len(d.SuggestedFixes) > 0 {
					t.Errorf("%s: a finding through a declared wrapper offers a fix: %s", r.Pass.Fset.Position(d.Pos), d.Message)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s reported nothing through the wrappers", cases[i].Analyzer.Name)
		}
	}
}

// load loads patterns of the testdata module.
func load(t *testing.T, patterns ...string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  testData(t),
		Env:  append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata does not type-check")
	}
	return pkgs
}

// TestUndeclaredWrappersSilent: the same code with no declaration reports
// nothing that the declarations do not: the store's own Unlock, the
// counterpart of its TryLock with the key a parameter of both, is found
// inside the store; the one same-package helper (grab) is inferred, and
// its caller reported as with the declaration; and the store's methods,
// inferred in their package, reach their callers in the other packages
// as facts and are reported there as the declared ones are.
func TestUndeclaredWrappersSilent(t *testing.T) {
	t.Parallel()
	as, err := analyzer.Analyzers(nil)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := load(t, "./wrappers/...")
	g, err := checker.Analyze(as, factgraph.LinkLoaded(pkgs, pkgs), nil)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{} // position and check of what the declarations report
	das, err := analyzer.Analyzers(&wrapperConfig)
	if err != nil {
		t.Fatal(err)
	}
	dg, err := checker.Analyze(das, factgraph.LinkLoaded(pkgs, pkgs), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range dg.Roots {
		for _, d := range act.Diagnostics {
			declared[act.Package.Fset.Position(d.Pos).String()+" "+d.Category] = true
		}
	}
	found, inferred, across := 0, 0, 0
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			posn := act.Package.Fset.Position(d.Pos)
			if act.Package.PkgPath == "lockvet.test/wrappers/store" && d.Category == "LV201" && strings.Contains(d.Message, "Unlock has no token") {
				found++
				continue
			}
			if act.Package.PkgPath == "lockvet.test/wrappers/setnxexpire" && d.Category == "LV101" && strings.Contains(d.Message, "Expire after grab acquired") {
				inferred++
				continue
			}
			if declared[posn.String()+" "+d.Category] && act.Package.PkgPath != "lockvet.test/wrappers/store" {
				across++
				continue
			}
			t.Errorf("%s: reported with no wrapper declared, and not with the declarations: %s", posn, d.Message)
		}
	}
	if across == 0 {
		t.Errorf("nothing reported in the store's callers: its inferred methods did not reach them")
	}
	if found != 1 {
		t.Errorf("the store's Unlock reported %d times, want once (LV201, counterpart of TryLock)", found)
	}
	if inferred != 1 {
		t.Errorf("the inferred grab's caller reported %d times, want once (LV101)", inferred)
	}
}

// TestWrapperDeclarationErrors: a malformed declaration is refused by
// Analyzers; one that does not fit the declared function fails the
// analysis of the packages that call it, with a message that says why.
func TestWrapperDeclarationErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  analyzer.Config
		want string
	}{
		{analyzer.Config{AcquireFuncs: []string{"(Store).TryLock"}}, `acquire-funcs "(Store).TryLock": want a function as pkg/path.Func or a method as (*pkg/path.Type).Method`},
		{analyzer.Config{ReleaseFuncs: []string{"example.com/x.Unlock"}}, `release-funcs "example.com/x.Unlock": option key is required`},
		{analyzer.Config{ExpireFuncs: []string{"example.com/x.Touch:key=0,ttl=none"}}, `ttl=none is for acquire-funcs only`},
		{analyzer.Config{AcquireFuncs: []string{"example.com/x.Lock:key=0,token=1"}}, `unknown option "token" (acquire-funcs take key, value, ttl, unit)`},
		{analyzer.Config{AcquireFuncs: []string{"example.com/x.Lock:key=0", "(*example.com/x.T).M:key=0;example.com/x.Lock:key=1"}}, `example.com/x.Lock is declared twice`},
	} {
		if _, err := analyzer.Analyzers(&tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.cfg, err, tc.want)
		}
	}

	pkgs := load(t, "./wrappers/setnxexpire")
	for _, tc := range []struct {
		cfg  analyzer.Config
		want string
	}{
		{analyzer.Config{AcquireFuncs: []string{"(*" + storeType + ").TryLock:key=name"}},
			`has no parameter name (its parameters: ctx, key, token, ttl)`},
		{analyzer.Config{ExpireFuncs: []string{"(*" + storeType + ").Touch:key=1,ttl=2"}},
			`the parameter seconds is a int; say what it counts with unit=seconds or unit=millis`},
		{analyzer.Config{ExpireFuncs: []string{"(*" + storeType + ").Touch:key=4"}},
			`key=4: (*lockvet.test/wrappers/store.Store).Touch has 3 parameters`},
	} {
		cfg := tc.cfg
		cfg.Checks = []string{"setnxexpire"}
		as, err := analyzer.Analyzers(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		g, err := checker.Analyze(as, factgraph.LinkLoaded(pkgs, pkgs), nil)
		if err != nil {
			t.Fatal(err)
		}
		var errs []string
		for act := range g.All() {
			if act.Err != nil {
				errs = append(errs, act.Err.Error())
			}
		}
		if !strings.Contains(strings.Join(errs, "\n"), tc.want) {
			t.Errorf("%+v: analysis errors %q, want one containing %q", tc.cfg, errs, tc.want)
		}
	}
}

// TestPackageLevelCalls: Redis calls and calls of declared helpers in
// package-level initializers (no enclosing function) are read by no
// check, and no check fails on them. A declared release helper called
// there once crashed LV202 and LV204 with a nil function.
func TestPackageLevelCalls(t *testing.T) {
	t.Parallel()
	const pkg = "lockvet.test/wrappers/pkglevel"
	as, err := analyzer.Analyzers(&analyzer.Config{
		AcquireFuncs:     []string{pkg + ".Grab:key=key,value=token,ttl=ttl"},
		ExpireFuncs:      []string{pkg + ".Touch:key=key,ttl=ttl"},
		ReleaseFuncs:     []string{pkg + ".Take:key=key"},
		SafeReleaseFuncs: []string{pkg + ".Give:key=key,value=token"},
	})
	if err != nil {
		t.Fatal(err)
	}
	pkgs := load(t, "./wrappers/pkglevel")
	g, err := checker.Analyze(as, factgraph.LinkLoaded(pkgs, pkgs), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			t.Errorf("%s: %s: reported a call outside any function", act.Package.Fset.Position(d.Pos), d.Message)
		}
	}
}
