package proof

// Running lockvet itself on the proof shapes: its analyzers (the same
// registry the CLI, go vet and golangci-lint use) run in process through
// go/packages and the x/tools checker; the first suggested fix of each
// finding is applied the way `lockvet -fix` applies it (non-overlapping
// fixes, identical edits once, imports the edits leave unused removed,
// gofmt). The result must be byte for byte the package checked in under
// internal/fixed, which the scenarios then compile and run: the fixed code
// the servers see is the code lockvet writes, not a copy of its template.

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/applyfix"
	"github.com/lockvet/lockvet/internal/factgraph"
	"github.com/lockvet/lockvet/internal/lua"
)

// A finding is one lockvet diagnostic on a shape.
type finding struct {
	Rule    string // LV101
	Func    string // Acquire, Mutex.Unlock
	File    string // base name
	Line    int
	Fix     bool // a suggested fix is offered
	Message string
}

func (f finding) String() string {
	s := f.Rule + " " + f.Func
	if !f.Fix {
		s += " (no fix)"
	}
	return s
}

// shapeTrees are the directories holding a buggy/ and a fixed/ tree of
// shape packages.
var shapeTrees = []string{"internal", "internal/adapters"}

// shapePkg is lockvet's verdict on one shape package.
type shapePkg struct {
	Name     string            // directory name: setnxexpire, goredis8, …
	Tree     string            // the shape tree it is in: internal, …
	Findings []finding         // on the buggy package
	Fixed    map[string][]byte // file base name → lockvet's fixed text
	Buggy    map[string][]byte // file base name → source
	Left     []finding         // the findings on the package under internal/fixed
}

// Expected findings on each buggy package: rule, function, and "(no fix)"
// where lockvet reports without rewriting. Exact: any other finding fails.
var wantFindings = map[string][]string{
	"setnxexpire":   {"LV101 Acquire"},
	"getsetexpire":  {"LV101 Takeover"},
	"txacquire":     {"LV102 Acquire"},
	"unsafeunlock":  {"LV201 Mutex.Unlock"},
	"constvalue":    {"LV204 WithLock", "LV201 WithLock"},
	"constpair":     {"LV204 lock", "LV201 unlock"},
	"lockstruct":    {"LV201 mutex.Unlock"},
	"checkthendel":  {"LV202 Mutex.Unlock"},
	"prefixdel":     {"LV202 Locker.Unlock"},
	"checkthenset":  {"LV107 Mutex.TryLock"},
	"unsaferenew":   {"LV203 Mutex.Refresh"},
	"ttlunit":       {"LV104 AcquireUntyped (no fix)", "LV104 AcquireSeconds", "LV104 Extend"},
	"acquireresult": {"LV105 TryAcquire"},
	"goredis9":      {"LV101 Mutex.TryLock", "LV201 Mutex.Unlock", "LV203 Mutex.Refresh"},
	"goredis8":      {"LV101 Mutex.TryLock", "LV201 Mutex.Unlock", "LV203 Mutex.Refresh"},
	// internal/adapters
	"redigo":   {"LV101 Mutex.TryLock", "LV201 Mutex.Unlock", "LV203 Mutex.Refresh", "LV105 TryAcquire", "LV104 AcquireFor"},
	"rueidis":  {"LV101 Mutex.TryLock", "LV201 Mutex.Unlock", "LV203 Mutex.Refresh"},
	"memcache": {"LV101 Mutex.TryLock (no fix)", "LV201 Mutex.Unlock (no fix)", "LV203 Mutex.Refresh (no fix)"},
}

// Findings left on the fixed packages: only those lockvet has no fix for.
var wantLeft = map[string][]string{
	"ttlunit":  {"LV104 AcquireUntyped (no fix)"},
	"memcache": {"LV101 Mutex.TryLock (no fix)", "LV201 Mutex.Unlock (no fix)", "LV203 Mutex.Refresh (no fix)"},
}

var (
	shapesOnce sync.Once
	shapesRes  map[string]*shapePkg
	shapesErr  error
)

// shapes runs lockvet on internal/buggy and internal/fixed once per test
// binary.
func shapes(t testing.TB) map[string]*shapePkg {
	t.Helper()
	shapesOnce.Do(func() { shapesRes, shapesErr = runShapes() })
	if shapesErr != nil {
		t.Fatal(shapesErr)
	}
	return shapesRes
}

// treeOf splits a shape package path into its tree, side (buggy or
// fixed) and name.
func treeOf(pkgPath string) (tree, side, name string) {
	const proof = "github.com/lockvet/lockvet/proof/"
	rel := strings.TrimPrefix(pkgPath, proof)
	dir, name := filepath.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	tree, side = filepath.Split(dir)
	return strings.TrimSuffix(tree, "/"), side, name
}

func runShapes() (map[string]*shapePkg, error) {
	var patterns []string
	for _, tree := range shapeTrees {
		patterns = append(patterns, "./"+tree+"/buggy/...", "./"+tree+"/fixed/...")
	}
	all, err := analyze(nil, patterns...)
	if err != nil {
		return nil, err
	}
	out := map[string]*shapePkg{}
	var buggy []*analyzed
	for _, r := range all {
		if _, side, _ := treeOf(r.pkg.PkgPath); side == "buggy" {
			buggy = append(buggy, r)
		}
	}
	for _, r := range buggy {
		tree, _, name := treeOf(r.pkg.PkgPath)
		sp := &shapePkg{Name: name, Tree: tree, Findings: r.findings, Buggy: map[string][]byte{}}
		for _, name := range r.pkg.CompiledGoFiles {
			src, err := os.ReadFile(name)
			if err != nil {
				return nil, err
			}
			sp.Buggy[filepath.Base(name)] = src
		}
		out[sp.Name] = sp
	}
	for _, r := range all {
		if _, side, name := treeOf(r.pkg.PkgPath); side == "fixed" && out[name] != nil {
			out[name].Left = r.findings
		}
	}

	// Like running lockvet -fix until it has nothing left to fix: each
	// round applies the fixes that do not overlap one taken before it;
	// packages where a fix had to wait are analyzed again and fixed in
	// the next round. (That the fixed code offers no further fix is
	// checked on internal/fixed.)
	overlay := map[string][]byte{}
	for round := 1; len(buggy) > 0; round++ {
		var again []string
		for _, r := range buggy {
			waiting, err := applyFixes(r, overlay)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", r.pkg.PkgPath, err)
			}
			if waiting {
				again = append(again, r.pkg.PkgPath)
			}
		}
		if len(again) == 0 {
			break
		}
		if round == 5 {
			return nil, fmt.Errorf("lockvet still has overlapping fixes after %d rounds of -fix", round)
		}
		if buggy, err = analyze(overlay, again...); err != nil {
			return nil, err
		}
	}
	for _, sp := range out {
		sp.Fixed = map[string][]byte{}
		for base, src := range sp.Buggy {
			name, _ := filepath.Abs(filepath.Join(sp.Tree, "buggy", sp.Name, base))
			if fixed, ok := overlay[name]; ok {
				src = fixed
			}
			sp.Fixed[base] = src
		}
	}
	return out, nil
}

// analyzeFixed runs lockvet on internal/fixed again (after -update
// rewrote it) and records what it finds.
func analyzeFixed(res map[string]*shapePkg) error {
	var patterns []string
	for _, tree := range shapeTrees {
		patterns = append(patterns, "./"+tree+"/fixed/...")
	}
	fixed, err := analyze(nil, patterns...)
	if err != nil {
		return err
	}
	for _, r := range fixed {
		if _, _, name := treeOf(r.pkg.PkgPath); res[name] != nil {
			res[name].Left = r.findings
		}
	}
	return nil
}

// analyzed is one package with lockvet's diagnostics on it.
type analyzed struct {
	pkg      *packages.Package
	diags    []analysis.Diagnostic
	findings []finding
}

func analyze(overlay map[string][]byte, patterns ...string) ([]*analyzed, error) {
	cfg := &packages.Config{
		Mode:    packages.LoadSyntax | packages.NeedModule,
		Dir:     ".",
		Env:     append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOWORK=off"),
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading %s:\n%s", strings.Join(patterns, " "), strings.Join(errs, "\n"))
	}
	as, err := analyzer.Analyzers(nil)
	if err != nil {
		return nil, err
	}
	g, err := checker.Analyze(as, factgraph.LinkLoaded(pkgs, pkgs), nil)
	if err != nil {
		return nil, err
	}
	// The checker's packages are factgraph's copies: match them by ID.
	byID := map[string]*analyzed{}
	var out []*analyzed
	for _, p := range pkgs {
		a := &analyzed{pkg: p}
		byID[p.ID] = a
		out = append(out, a)
	}
	for _, act := range g.Roots {
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %v", act, act.Err)
		}
		a := byID[act.Package.ID]
		if a == nil {
			return nil, fmt.Errorf("checker root %s was not loaded", act.Package.ID)
		}
		for _, d := range act.Diagnostics {
			a.diags = append(a.diags, d)
			a.findings = append(a.findings, toFinding(act.Package, d))
		}
	}
	for _, a := range out {
		slices.SortFunc(a.findings, func(x, y finding) int {
			return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Line, y.Line), cmp.Compare(x.Rule, y.Rule))
		})
	}
	slices.SortFunc(out, func(x, y *analyzed) int { return cmp.Compare(x.pkg.PkgPath, y.pkg.PkgPath) })
	return out, nil
}

func toFinding(pkg *packages.Package, d analysis.Diagnostic) finding {
	pos := pkg.Fset.Position(d.Pos)
	f := finding{Rule: d.Category, File: filepath.Base(pos.Filename), Line: pos.Line, Fix: len(d.SuggestedFixes) > 0, Message: d.Message}
	for _, file := range pkg.Syntax {
		if file.FileStart > d.Pos || d.Pos > file.FileEnd {
			continue
		}
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || d.Pos < fd.Pos() || d.Pos > fd.End() {
				continue
			}
			f.Func = fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				t := fd.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if id, ok := t.(*ast.Ident); ok {
					f.Func = id.Name + "." + f.Func
				}
			}
		}
	}
	return f
}

// applyFixes applies, as one round of `lockvet -fix` does (with its
// applier), the first suggested fix of every finding whose edits do not
// overlap a fix taken before it, writing the results into overlay (file
// name → text). It reports whether a fix had to wait for the next round.
func applyFixes(a *analyzed, overlay map[string][]byte) (bool, error) {
	fset := a.pkg.Fset
	round := applyfix.Round{}
	waiting := false
	for _, d := range a.diags {
		if len(d.SuggestedFixes) == 0 {
			continue
		}
		mine := map[string][]applyfix.Edit{}
		for _, te := range d.SuggestedFixes[0].TextEdits {
			tf, e, ok := applyfix.Of(fset, te)
			if !ok || !slices.Contains(a.pkg.CompiledGoFiles, tf.Name()) {
				return false, fmt.Errorf("fix of %q edits outside the package's files", d.Message)
			}
			for _, f := range a.pkg.Syntax {
				if fset.File(f.Pos()) == tf {
					e = applyfix.DeclInsertion(tf, f, e)
				}
			}
			mine[tf.Name()] = append(mine[tf.Name()], e)
		}
		if !round.Fits(mine) {
			waiting = true
			continue
		}
		round.Take(mine)
	}
	for name, es := range round {
		src, ok := overlay[name]
		if !ok {
			var err error
			if src, err = os.ReadFile(name); err != nil {
				return false, err
			}
		}
		fixed, err := applyfix.Tidy(name, applyfix.Apply(src, es), importNames(a.pkg, name))
		if err != nil {
			return false, fmt.Errorf("%s: fixed code does not parse: %v", name, err)
		}
		overlay[name] = fixed
	}
	return waiting, nil
}

// importNames maps the import paths of the package's file name, as
// loaded, to the names it uses for them.
func importNames(pkg *packages.Package, name string) map[string]string {
	for _, f := range pkg.Syntax {
		if pkg.Fset.File(f.FileStart).Name() == name {
			return applyfix.ImportNames(pkg.TypesInfo, f)
		}
	}
	return nil
}

// TestProofShapes: lockvet reports each buggy shape exactly as expected,
// its fixes produce the checked-in fixed packages byte for byte, and the
// fixed packages leave only the findings lockvet has no fix for. With
// -update it rewrites internal/fixed from lockvet's output.
func TestProofShapes(t *testing.T) {
	res := shapes(t)
	if *update {
		for name, sp := range res {
			if err := writeFixed(filepath.Join(sp.Tree, "fixed", name), sp.Fixed); err != nil {
				t.Fatal(err)
			}
		}
		if staleFixed {
			if err := analyzeFixed(res); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(wantFindings)) {
		if res[name] == nil {
			t.Errorf("no shape package %s under a buggy tree", name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(res)) {
		sp := res[name]
		t.Run(name, func(t *testing.T) {
			want, ok := wantFindings[name]
			if !ok {
				t.Fatalf("%s/buggy/%s has no entry in wantFindings", sp.Tree, name)
			}
			checkFindings(t, "buggy", sp.Findings, want)
			dir := filepath.Join(sp.Tree, "fixed", name)
			for _, file := range slices.Sorted(maps.Keys(sp.Fixed)) {
				got, err := os.ReadFile(filepath.Join(dir, file))
				if err != nil {
					t.Errorf("%v (go test ./proof -run TestProofShapes -update writes it)", err)
					continue
				}
				if !bytes.Equal(got, sp.Fixed[file]) {
					t.Errorf("%s/%s is not what lockvet's fixes produce (go test ./proof -run TestProofShapes -update rewrites it); lockvet writes:\n%s", dir, file, sp.Fixed[file])
				}
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if _, ok := sp.Fixed[e.Name()]; !ok {
					t.Errorf("%s/%s has no counterpart in %s/buggy/%s", dir, e.Name(), sp.Tree, name)
				}
			}
			checkFindings(t, "fixed", sp.Left, wantLeft[name])
			checkScripts(t, sp)
		})
	}
}

// insertedScript matches a script source a fix declares.
var insertedScript = regexp.MustCompile("(?m)^var \\w+ = \\w+\\.New(?:Lua)?Script\\((?:\\d+, )?`([^`]*)`\\)$")

// checkScripts: every script a fix inserted is one of internal/lua's
// canonical sources, so the scripts the scenarios run are lockvet's.
func checkScripts(t *testing.T, sp *shapePkg) {
	t.Helper()
	for file, fixed := range sp.Fixed {
		for _, m := range insertedScript.FindAllStringSubmatch(string(fixed), -1) {
			if bytes.Contains(sp.Buggy[file], []byte(m[0])) {
				continue // in the buggy code already, not inserted
			}
			if m[1] != lua.UnlockSrc && m[1] != lua.UnlockPrefixSrc && m[1] != lua.RenewSrc && m[1] != lua.GetSetSrc {
				t.Errorf("%s: a fix inserted a script that is not internal/lua's: %s", file, m[1])
			}
		}
	}
}

func checkFindings(t *testing.T, which string, got []finding, want []string) {
	t.Helper()
	var g []string
	for _, f := range got {
		g = append(g, f.String())
	}
	slices.Sort(g)
	w := slices.Sorted(slices.Values(want))
	if !slices.Equal(g, w) {
		t.Errorf("lockvet on the %s package: got findings %q, want %q", which, g, w)
		for _, f := range got {
			t.Logf("%s:%d: %s %s", f.File, f.Line, f.Rule, f.Message)
		}
	}
}

func writeFixed(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, src) {
			continue
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			return err
		}
		staleFixed = true
	}
	return nil
}
