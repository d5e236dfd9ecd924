package driver

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/internal/factgraph"
	"github.com/lockvet/lockvet/internal/findings"
)

// loadMode loads syntax and types for the named packages only; their
// dependencies come from export data. redisops has facts (summaries of
// lock helpers, exported only for main-module packages), which x/tools'
// checker would otherwise want from every dependency analyzed from
// source; the checker instead gets packages linked by factgraph, so that
// it runs redisops on main-module packages loaded here and on nothing
// else (docs/performance.md, "Facts").
const loadMode = packages.LoadSyntax | packages.NeedModule

// Loaded is what Load returns.
type Loaded struct {
	// All are the packages go/packages returned (test variants
	// included); empty when the patterns matched nothing.
	All []*packages.Package
	// Roots are the packages to analyze and report on (selectRoots), as
	// go/packages returned them: their Imports are the full graph.
	Roots []*packages.Package
	// Linked are copies of roots, in the same order, for checker.Analyze:
	// their Imports (and those of the packages they reach) hold only the
	// packages that carry facts.
	Linked []*packages.Package
	// Extra counts the main-module packages loaded in addition to the
	// patterns' packages for the lock helpers they hold; they are analyzed
	// for their facts and not reported on.
	Extra int

	// rest are the module's packages that SetModule's view loaded when a
	// fix asked (not analyzed: a fix may edit their files).
	restMu sync.Mutex
	rest   []*packages.Package
}

// module is the packages a fix may edit: the roots, and the rest of the
// module when a fix had it loaded.
func (l *Loaded) module() []*packages.Package {
	l.restMu.Lock()
	defer l.restMu.Unlock()
	if len(l.rest) == 0 {
		return l.Roots
	}
	return slices.Concat(l.Roots, l.rest)
}

// Load loads patterns in dir. lock tells the packages whose calls can be
// lock operations (analyzer.LockPackages). When the named packages import
// main-module packages the patterns do not name and that can hold lock
// helpers, it loads again with those added, so that the helpers'
// summaries reach their callers exactly as under go vet.
func Load(dir string, patterns []string, tests bool, lock func(string) bool) (*Loaded, error) {
	cfg := &packages.Config{Mode: loadMode, Dir: dir, Tests: tests}
	if Bench.allSyntax {
		cfg.Mode |= packages.NeedDeps
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return &Loaded{}, nil
	}
	if Bench.allSyntax {
		roots := selectRoots(pkgs)
		return &Loaded{All: pkgs, Roots: roots, Linked: roots}, nil
	}
	roots := selectRoots(pkgs)
	g := factgraph.Plan(pkgs, lock)
	extra := 0
	if len(g.Missing) > 0 {
		extra = len(g.Missing)
		want := map[string]bool{}
		for _, r := range roots {
			want[r.ID] = true
		}
		more, err := packages.Load(cfg, slices.Concat(patterns, g.Missing)...)
		if err != nil {
			return nil, err
		}
		pkgs, g = more, factgraph.Plan(more, lock)
		roots = slices.DeleteFunc(selectRoots(more), func(p *packages.Package) bool { return !want[p.ID] })
	}
	return &Loaded{All: pkgs, Roots: roots, Linked: g.Link(roots), Extra: extra}, nil
}

// brokenByTests returns the import paths of packages that load without
// their test files but not with them: their findings come from the
// package alone, and a hint names -test=false.
func brokenByTests(pkgs []*packages.Package) []string {
	byID := map[string]*packages.Package{}
	for _, p := range pkgs {
		byID[p.ID] = p
	}
	var out []string
	for _, p := range pkgs {
		if p.ID != p.PkgPath || len(p.Errors) > 0 || p.IllTyped {
			continue
		}
		in := byID[p.PkgPath+" ["+p.PkgPath+".test]"]
		ext := byID[p.PkgPath+"_test ["+p.PkgPath+".test]"]
		if in != nil && len(in.Errors) > 0 || ext != nil && len(ext.Errors) > 0 {
			out = append(out, p.PkgPath)
		}
	}
	slices.Sort(out)
	return out
}

// selectRoots drops packages whose files another root covers: with tests,
// go/packages returns p, "p [p.test]" (p's files plus its internal tests)
// and the generated test main "p.test". Like go vet, analyze only the test
// variant, unless it is broken and p is not.
func selectRoots(pkgs []*packages.Package) []*packages.Package {
	byID := map[string]*packages.Package{}
	paths := map[string]bool{}
	for _, p := range pkgs {
		byID[p.ID] = p
		paths[p.PkgPath] = true
	}
	var out []*packages.Package
	for _, p := range pkgs {
		if p.ID == p.PkgPath {
			if tv := byID[p.PkgPath+" ["+p.PkgPath+".test]"]; tv != nil && (len(tv.Errors) == 0 || len(p.Errors) > 0) {
				continue
			}
		}
		if p.Name == "main" && strings.HasSuffix(p.PkgPath, ".test") && paths[strings.TrimSuffix(p.PkgPath, ".test")] {
			continue // generated test main
		}
		out = append(out, p)
	}
	return out
}

// packageErrors records one line per broken package (its first error)
// and returns, for each broken root, that first error.
func packageErrors(dir string, roots []*packages.Package, res *findings.Result) map[*packages.Package]string {
	first := map[*packages.Package]string{}
	printed := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if len(p.Errors) == 0 {
			return
		}
		msg := firstError(dir, p.Errors)
		first[p] = msg
		name := cmp.Or(p.PkgPath, p.ID)
		line := name + ": " + msg
		if strings.HasPrefix(msg, "pattern "+name+":") {
			line = msg
		}
		if !printed[line] {
			printed[line] = true
			res.Errors = append(res.Errors, line)
		}
	})
	// A root that could not import a dependency the go command could not
	// load gets the go command's reason, not the type checker's
	// "could not import" (the JSON error of the package).
	for _, r := range roots {
		msg, ok := first[r]
		if !ok || !strings.Contains(msg, "could not import ") {
			continue
		}
		for _, imp := range r.Imports {
			if dep, ok := first[imp]; ok && strings.Contains(msg, "could not import "+imp.PkgPath+" ") {
				first[r] = "dependency " + imp.PkgPath + ": " + dep
				break
			}
		}
	}
	// A root that is broken only through a dependency gets that one's error.
	for _, r := range roots {
		if _, ok := first[r]; !ok && r.IllTyped {
			packages.Visit([]*packages.Package{r}, func(p *packages.Package) bool {
				if msg, ok := first[p]; ok && first[r] == "" {
					first[r] = "dependency " + p.PkgPath + ": " + msg
				}
				return first[r] == ""
			}, nil)
		}
	}
	return first
}

// firstError describes a package's first problem in one line, with its
// position relative to dir. Type and syntax errors are preferred over
// the go command's report of the same failure.
func firstError(dir string, errs []packages.Error) string {
	e, n := errs[0], 0
	for _, c := range errs {
		if c.Kind == packages.TypeError || c.Kind == packages.ParseError {
			if n == 0 {
				e = c
			}
			n++
		}
	}
	msg := ErrorText(dir, e)
	if n > 1 {
		msg += fmt.Sprintf(" (and %d more)", n-1)
	}
	return msg
}

// ErrorText is a package error in one line, its position relative to dir.
func ErrorText(dir string, e packages.Error) string {
	msg := e.Msg
	// The go command's messages start with a "# importpath" line.
	for line := range strings.Lines(msg) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "# ") {
			msg = line
			break
		}
	}
	msg = moduleHint(dir, msg)
	pos := e.Pos
	if pos == "" || pos == "-" {
		return msg
	}
	// pos is file:line:col or file:line.
	file, rest := pos, ""
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 || strings.Trim(file[i+1:], "0123456789") != "" {
			break
		}
		file, rest = file[:i], file[i:]+rest
	}
	return findings.Rel(dir, file) + rest + ": " + msg
}

// moduleHint adds advice to the go command's error for patterns in a
// directory that belongs to no module.
func moduleHint(dir, msg string) string {
	if !strings.Contains(msg, "does not contain main module") && !strings.Contains(msg, "go.mod file not found") {
		return msg
	}
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range []string{"go.mod", "go.work"} {
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				return msg
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return msg + " (no go.mod in " + dir + " or any parent: run lockvet in a Go module, or name one with -C)"
}
