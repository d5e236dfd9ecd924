package main

import (
	"slices"

	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/internal/factgraph"
)

// loadMode loads syntax and types for the named packages only; their
// dependencies come from export data. redisops has facts (summaries of
// lock helpers, exported only for main-module packages), which x/tools'
// checker would otherwise want from every dependency analyzed from
// source; the checker instead gets packages linked by factgraph, so that
// it runs redisops on main-module packages loaded here and on nothing
// else (docs/performance.md, "Facts").
const loadMode = packages.LoadSyntax | packages.NeedModule

// loaded is what load returns.
type loaded struct {
	// all are the packages go/packages returned (test variants
	// included); empty when the patterns matched nothing.
	all []*packages.Package
	// roots are the packages to analyze and report on (selectRoots), as
	// go/packages returned them: their Imports are the full graph.
	roots []*packages.Package
	// linked are copies of roots, in the same order, for checker.Analyze:
	// their Imports (and those of the packages they reach) hold only the
	// packages that carry facts.
	linked []*packages.Package
	// extra counts the main-module packages loaded in addition to the
	// patterns' packages for the lock helpers they hold; they are analyzed
	// for their facts and not reported on.
	extra int
}

// load loads patterns in dir. lock tells the packages whose calls can be
// lock operations (analyzer.LockPackages). When the named packages import
// main-module packages the patterns do not name and that can hold lock
// helpers, it loads again with those added, so that the helpers'
// summaries reach their callers exactly as under go vet.
func load(dir string, patterns []string, tests bool, lock func(string) bool) (*loaded, error) {
	cfg := &packages.Config{Mode: loadMode, Dir: dir, Tests: tests}
	if bench.allSyntax {
		cfg.Mode |= packages.NeedDeps
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return &loaded{}, nil
	}
	if bench.allSyntax {
		roots := selectRoots(pkgs)
		return &loaded{all: pkgs, roots: roots, linked: roots}, nil
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
	return &loaded{all: pkgs, roots: roots, linked: g.Link(roots), extra: extra}, nil
}
