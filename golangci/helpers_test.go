package golangci_test

import (
	"fmt"
	"github.com/lockvet/lockvet/internal/factgraph"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/golangci"
)

// repoRoot is the lockvet module root.
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test source")
	}
	return filepath.Dir(filepath.Dir(file))
}

// goEnv is the environment for go commands run by the tests: the caller's,
// without a GOFLAGS that could change how modules resolve (-mod=vendor).
func goEnv(extra ...string) []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GOFLAGS=")
	})
	return append(env, extra...)
}

var (
	downloadMu sync.Mutex
	downloaded = map[string]bool{}
)

// modDownload fetches dir's module dependencies into the module cache, so
// that loading dir can then run with GOPROXY=off.
func modDownload(t testing.TB, dir string) {
	t.Helper()
	downloadMu.Lock()
	defer downloadMu.Unlock()
	if downloaded[dir] {
		return
	}
	command(t, dir, goEnv(), "go", "mod", "download")
	downloaded[dir] = true
}

// command runs a command in dir and returns its standard output.
func command(t testing.TB, dir string, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s in %s: %v\n%s%s", name, strings.Join(args, " "), dir, err, out, stderr.String())
	}
	return out
}

// newPlugin builds the plugin the way golangci-lint does: by name from the
// register, with the raw settings of the configuration.
func newPlugin(t testing.TB, settings any) register.LinterPlugin {
	t.Helper()
	ctor, err := register.GetPlugin("lockvet")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ctor(settings)
	if err != nil {
		t.Fatalf("settings %v: %v", settings, err)
	}
	return p
}

func buildAnalyzers(t testing.TB, p register.LinterPlugin) []*analysis.Analyzer {
	t.Helper()
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// diag is one diagnostic of an in-process run.
type diag struct {
	Analyzer string
	Pos      token.Position
	Fset     *token.FileSet
	analysis.Diagnostic
}

// load loads patterns in the module at dir, tests included (as
// golangci-lint does), resolving modules from the cache only. It
// type-checks the dependencies from source, as analysistest does: export
// data would have go list compile every package of the test module
// first, minutes of CPU on a cold build cache (TestGolangciLintHost runs
// golangci-lint's own loader).
func load(t testing.TB, dir string, patterns ...string) []*packages.Package {
	t.Helper()
	pkgs, err := loadPackages(dir, patterns)
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func loadPackages(dir string, patterns []string) ([]*packages.Package, error) {
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Dir:   dir,
		Tests: true,
		Env:   goEnv("GOPROXY=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		return nil, fmt.Errorf("%d errors loading %v in %s", n, patterns, dir)
	}
	return pkgs, nil
}

var (
	sharedMu    sync.Mutex
	sharedLoads = map[string]func() ([]*packages.Package, error){}
)

// loadShared is load, done once per test binary for the same dir and
// patterns: each load type-checks the standard library and the client
// modules from source again, and several tests analyse the example
// module. The tests must not change what it returns.
func loadShared(t testing.TB, dir string, patterns ...string) []*packages.Package {
	t.Helper()
	key := dir + "\x00" + strings.Join(patterns, "\x00")
	sharedMu.Lock()
	once := sharedLoads[key]
	if once == nil {
		once = sync.OnceValues(func() ([]*packages.Package, error) { return loadPackages(dir, patterns) })
		sharedLoads[key] = once
	}
	sharedMu.Unlock()
	pkgs, err := once()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// analyze runs as on pkgs with the go/analysis checker. Diagnostics are
// deduplicated: a package and its test variant share files.
func analyze(t testing.TB, pkgs []*packages.Package, as []*analysis.Analyzer) []diag {
	t.Helper()
	g, err := checker.Analyze(as, factgraph.LinkLoaded(pkgs, pkgs), nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []diag
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			key := fmt.Sprintf("%s %s %s", pos, act.Analyzer.Name, d.Message)
			if seen[key] {
				continue
			}
			seen[key] = true
			name := act.Analyzer.Name
			if name == golangci.Name {
				// The plugin's one analyzer: the check is the first ID.
				id, _, _ := strings.Cut(d.Category, ",")
				if r := analyzer.Lookup(id); r != nil {
					name = r.Name
				}
			}
			out = append(out, diag{name, pos, act.Package.Fset, d})
		}
	}
	return out
}
