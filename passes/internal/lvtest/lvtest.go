// Package lvtest helps check tests find their test module.
//
// The analysistest module under passes/testdata imports the real client
// modules (go-redis v6–v9, redsync, bsm/redislock, …). analysistest loads it
// with GOPROXY=off, so the modules must already be in the module cache;
// TestData downloads them through the configured proxy first, once per
// test binary.
//
// Importing lvtest imports internal/testgc: the test binaries that load
// the test module from source run their garbage collector less often.
package lvtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	_ "github.com/lockvet/lockvet/internal/testgc"

	"golang.org/x/tools/go/packages"
)

var (
	once    sync.Once
	dlError error
	dlOut   []byte
)

// TestData returns the absolute path of passes/testdata, with its module
// dependencies downloaded.
func TestData(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "testdata")
	once.Do(func() {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		dlOut, dlError = cmd.CombinedOutput()
	})
	if dlError != nil {
		t.Fatalf("go mod download in %s: %v\n%s", dir, dlError, dlOut)
	}
	return dir
}

// Load loads packages of the test module (patterns relative to it) with
// syntax and types, offline, for tests that run analyzers through the
// checker rather than analysistest. Like analysistest, it type-checks the
// dependencies from source (LoadAllSyntax, a few seconds for all the
// client modules): loading them from export data would have go list
// compile every package of the test module first, minutes of CPU on a
// cold build cache.
func Load(t testing.TB, patterns ...string) []*packages.Package {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  TestData(t),
		Env:  append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}
