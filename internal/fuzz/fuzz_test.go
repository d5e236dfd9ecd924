package fuzz

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/factgraph"
)

// testModule is the check tests' module: its go.mod pins the real client
// modules the inputs are type-checked against.
const testModule = "../../passes/testdata"

// stdPackages are the standard packages an input may import, besides
// those the client modules import.
var stdPackages = []string{
	"context", "crypto/rand", "encoding/base64", "encoding/hex", "errors", "fmt",
	"log", "math/rand", "math/rand/v2", "os", "strconv", "strings", "sync",
	"sync/atomic", "testing", "time",
}

// universe is the type-checked client modules and standard packages,
// loaded once per process from export data.
type universe struct {
	pkgs  map[string]*types.Package
	sizes types.Sizes
}

var (
	loadOnce sync.Once
	loaded   *universe
	loadErr  error
)

func load(tb testing.TB) *universe {
	tb.Helper()
	loadOnce.Do(func() { loaded, loadErr = loadUniverse() })
	if loadErr != nil {
		tb.Fatal(loadErr)
	}
	return loaded
}

func loadUniverse() (*universe, error) {
	dir, err := filepath.Abs(testModule)
	if err != nil {
		return nil, err
	}
	dl := exec.Command("go", "mod", "download")
	dl.Dir = dir
	dl.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := dl.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go mod download in %s: %v\n%s", dir, err, out)
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesSizes | packages.NeedImports | packages.NeedDeps,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	roots, err := packages.Load(cfg, append([]string{"lockvet.test/deps"}, stdPackages...)...)
	if err != nil {
		return nil, err
	}
	u := &universe{pkgs: map[string]*types.Package{}}
	var errs []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		if p.Types != nil {
			u.pkgs[p.PkgPath] = p.Types
		}
		if u.sizes == nil {
			u.sizes = p.TypesSizes
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading the client modules:\n%s", strings.Join(errs, "\n"))
	}
	return u, nil
}

func (u *universe) Import(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if p := u.pkgs[path]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("package %s is not available to fuzz inputs", path)
}

// errIllTyped marks an input that does not parse or type-check: the
// analyzers are not run on it.
var errIllTyped = errors.New("ill-typed input")

// watchdog is how long the analysis of one input may take. Inputs are
// small; anything near this is a hang.
const watchdog = 60 * time.Second

// outcome is what the analyzers made of one input.
type outcome struct {
	findings int
	fixes    int
}

// analyze type-checks src as the only file of a package and runs every
// analyzer on it, as the lockvet command does (checker.Analyze). The file
// is written to dir, because fixes read the source through
// Pass.ReadFile. It fails the test when an analyzer panics (checker also
// panics on an invalid fix), returns an error, runs past the watchdog, or
// suggests a fix whose result does not parse; it returns errIllTyped for
// input the analyzers are not meant to see.
func analyze(t *testing.T, u *universe, dir string, src []byte) (outcome, error) {
	t.Helper()
	var out outcome
	fset := token.NewFileSet()
	filename := filepath.Join(dir, "input.go")
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return out, fmt.Errorf("%w: %v", errIllTyped, err)
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Instances:    map[*ast.Ident]types.Instance{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		FileVersions: map[*ast.File]string{},
	}
	const path = "fuzz.test/p"
	conf := types.Config{Importer: u, Sizes: u.sizes, GoVersion: "go1.26", Error: func(error) {}}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, info)
	if err != nil {
		return out, fmt.Errorf("%w: %v", errIllTyped, err)
	}
	if err := os.WriteFile(filename, src, 0o644); err != nil {
		t.Fatal(err)
	}
	p := &packages.Package{
		ID: path, PkgPath: path, Name: pkg.Name(),
		GoFiles: []string{filename}, CompiledGoFiles: []string{filename},
		Fset: fset, Syntax: []*ast.File{f},
		Types: pkg, TypesInfo: info, TypesSizes: u.sizes,
	}
	// Both Redis generations: 8.4 turns on the fixes that use DELEX.
	cfg := &analyzer.Config{IncludeGenerated: true}
	if len(src)%2 == 1 {
		cfg.RedisVersion = "8.4"
	}
	analyzers, err := analyzer.Analyzers(cfg)
	if err != nil {
		t.Fatal(err)
	}

	timer := time.AfterFunc(watchdog, func() {
		panic(fmt.Sprintf("lockvet hangs: the analysis of this input ran over %s:\n%s", watchdog, src))
	})
	roots := []*packages.Package{p}
	graph, err := checker.Analyze(analyzers, factgraph.LinkLoaded(roots, roots), &checker.Options{Sequential: true})
	timer.Stop()
	if err != nil {
		t.Fatalf("checker.Analyze: %v\n%s", err, src)
	}
	for act := range graph.All() {
		if act.Err != nil {
			t.Errorf("%s returned an error on well-typed input: %v", act.Analyzer.Name, act.Err)
		}
	}
	for _, act := range graph.Roots {
		for _, d := range act.Diagnostics {
			out.findings++
			for _, fix := range d.SuggestedFixes {
				out.fixes++
				fixed, err := applyFix(fset, filename, src, fix)
				if err != nil {
					t.Errorf("%s: %s: fix %q: %v", fset.Position(d.Pos), act.Analyzer.Name, fix.Message, err)
					continue
				}
				if _, err := parser.ParseFile(token.NewFileSet(), filename, fixed, parser.SkipObjectResolution); err != nil {
					t.Errorf("%s: %s: fix %q leaves source that does not parse: %v\n--- input:\n%s\n--- fixed:\n%s",
						fset.Position(d.Pos), act.Analyzer.Name, fix.Message, err, src, fixed)
				}
			}
		}
	}
	if t.Failed() {
		t.Logf("input:\n%s", src)
	}
	return out, nil
}

// applyFix applies one suggested fix to the input file.
func applyFix(fset *token.FileSet, filename string, src []byte, fix analysis.SuggestedFix) ([]byte, error) {
	type edit struct {
		start, end int
		text       []byte
	}
	var edits []edit
	for _, e := range fix.TextEdits {
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		p, q := fset.PositionFor(e.Pos, false), fset.PositionFor(end, false)
		if p.Filename != filename || q.Filename != filename {
			return nil, fmt.Errorf("edit outside the input file: %s", p.Filename)
		}
		if p.Offset < 0 || q.Offset < p.Offset || q.Offset > len(src) {
			return nil, fmt.Errorf("edit [%d,%d) out of range", p.Offset, q.Offset)
		}
		edits = append(edits, edit{p.Offset, q.Offset, e.NewText})
	}
	slices.SortStableFunc(edits, func(a, b edit) int { return a.start - b.start })
	var buf bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last {
			return nil, fmt.Errorf("overlapping edits at offset %d", e.start)
		}
		buf.Write(src[last:e.start])
		buf.Write(e.text)
		last = e.end
	}
	buf.Write(src[last:])
	return buf.Bytes(), nil
}

// seeds are the sources of the check tests (passes/testdata) and of the
// example module (testdata), one file each.
func seeds(tb testing.TB) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, root := range []string{testModule, "../../testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			data, err := os.ReadFile(path)
			out = append(out, data)
			return err
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// FuzzAnalyzers: arbitrary source text, mutated from the test sources.
// Most mutations do not type-check and are dropped; the ones that do
// reach every analyzer.
func FuzzAnalyzers(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	// Load before f.Fuzz: the fuzzing engine counts any call of the
	// fuzz function that takes over 10s as a hang.
	u, dir := load(f), f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := analyze(t, u, dir, src); err != nil && !errors.Is(err, errIllTyped) {
			t.Fatal(err)
		}
	})
}

// TestSeedsReachTheAnalyzers: the seeds are worth fuzzing from only if
// most of them type-check on their own and produce findings.
func TestSeedsReachTheAnalyzers(t *testing.T) {
	u := load(t)
	dir := t.TempDir()
	var typed, findings int
	all := seeds(t)
	for _, s := range all {
		out, err := analyze(t, u, dir, s)
		if err == nil {
			typed++
			findings += out.findings
		}
	}
	t.Logf("%d seeds, %d type-check alone, %d findings", len(all), typed, findings)
	if typed < len(all)/2 || findings == 0 {
		t.Errorf("only %d of %d seeds type-check, %d findings", typed, len(all), findings)
	}
}
