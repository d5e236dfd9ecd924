package factgraph_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/factgraph"
)

// load lists packages of the test module with their import graph and
// modules (no types: Plan and Link read only the graph).
func load(t *testing.T, patterns ...string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedImports | packages.NeedModule,
		Dir:  testData(t),
		Env:  append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// testData is passes/testdata, the analysistest module, with its modules
// downloaded.
func testData(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "passes", "testdata")
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in %s: %v\n%s", dir, err, out)
	}
	return dir
}

func TestPlan(t *testing.T) {
	lock, err := analyzer.LockPackages(nil)
	if err != nil {
		t.Fatal(err)
	}
	const helper = "lockvet.test/xpkg/v9/lock"

	// order names the helper package, which the pattern does not: load it.
	g := factgraph.Plan(load(t, "./xpkg/v9/order"), lock)
	if want := []string{helper}; !slices.Equal(g.Missing, want) {
		t.Errorf("Missing = %v, want %v", g.Missing, want)
	}

	// Both loaded: order is linked to the helper package and to nothing
	// else (not to go-redis, context or time); the helper to nothing.
	pkgs := load(t, "./xpkg/v9/order", "./xpkg/v9/lock", "./xpkg/plain")
	g = factgraph.Plan(pkgs, lock)
	if len(g.Missing) != 0 {
		t.Errorf("Missing = %v, want none", g.Missing)
	}
	linked := g.Link(pkgs)
	byPath := map[string]*packages.Package{}
	for i, p := range linked {
		byPath[p.PkgPath] = p
		if p == pkgs[i] {
			t.Errorf("%s: Link returned the original, not a copy", p.PkgPath)
		}
	}
	order := byPath["lockvet.test/xpkg/v9/order"]
	if len(order.Imports) != 1 || order.Imports[helper] != byPath[helper] {
		t.Errorf("order's linked imports: %v, want only %s (the same copy as the root)", order.Imports, helper)
	}
	if n := len(byPath[helper].Imports); n != 0 {
		t.Errorf("the helper package is linked to %d packages outside the main module", n)
	}
	if n := len(byPath["lockvet.test/xpkg/plain"].Imports); n != 0 {
		t.Errorf("a package that reaches no client is linked to %d packages", n)
	}
	if got := g.Linked(pkgs); got != 2 {
		t.Errorf("Linked = %d, want 2 (order and the helper package)", got)
	}
	// The originals keep their full graph.
	for _, p := range pkgs {
		if p.PkgPath == "lockvet.test/xpkg/v9/order" && len(p.Imports) < 3 {
			t.Errorf("Link changed the loaded package's imports: %v", p.Imports)
		}
	}

	// A declared wrapper's package counts as a client.
	decl, err := analyzer.LockPackages(&analyzer.Config{ReleaseFuncs: []string{"lockvet.test/xpkg/plain.Lock:key=0"}})
	if err != nil {
		t.Fatal(err)
	}
	if !decl("lockvet.test/xpkg/plain") || lock("lockvet.test/xpkg/plain") {
		t.Errorf("LockPackages: a declared wrapper's package must count, and only when declared")
	}
	for _, p := range []string{"github.com/redis/go-redis/v9", "github.com/gomodule/redigo/redis", "github.com/redis/rueidis", "github.com/bradfitz/gomemcache/memcache"} {
		if !lock(p) {
			t.Errorf("LockPackages(nil)(%q) = false", p)
		}
	}
}
