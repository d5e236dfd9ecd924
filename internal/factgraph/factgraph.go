// Package factgraph links the packages lockvet's driver loads so that
// redisops' facts (summaries of lock helpers) flow between the main
// module's packages and nowhere else.
//
// x/tools' checker runs an analyzer that has facts on every package its
// root packages import, transitively (a "vertical" edge per import), and
// expects each of them to be loaded from source. Loading every dependency
// from source costs several times the type-checking of the named packages
// alone (docs/performance.md). lockvet exports facts only for packages of
// the main module (redisops, facts.go), so no other package can
// contribute one: the driver loads the named packages with syntax, their
// dependencies from export data, and hands the checker copies of the
// packages whose Imports keep only the edges to main-module packages that
// were loaded from source and can reach a Redis client. The checker then
// runs redisops on those packages only, and facts flow exactly as go vet
// carries them between the same packages.
package factgraph

import (
	"maps"
	"slices"

	"golang.org/x/tools/go/packages"
)

// Graph is what Plan found in one load.
type Graph struct {
	// Missing are main-module packages that the loaded packages import,
	// that can reach a client, and that were not loaded from source (the
	// patterns did not name them): load them too (as extra roots whose
	// findings are not reported) so that their helpers are seen.
	Missing []string

	full     map[*packages.Package]bool // loaded with syntax and function bodies
	reaches  map[*packages.Package]bool // memo: reaches a client package
	isClient func(path string) bool
}

// Plan examines a load: initial are the packages packages.Load returned
// (all loaded from source, with function bodies), isClient tells the
// packages whose calls can be lock operations (clients, lock libraries,
// declared wrappers' packages).
func Plan(initial []*packages.Package, isClient func(path string) bool) *Graph {
	g := &Graph{full: map[*packages.Package]bool{}, reaches: map[*packages.Package]bool{}, isClient: isClient}
	for _, p := range initial {
		g.full[p] = true
	}
	missing := map[string]bool{}
	packages.Visit(initial, nil, func(p *packages.Package) {
		if !g.full[p] && inMain(p) && g.reach(p) {
			missing[p.PkgPath] = true
		}
	})
	g.Missing = slices.Sorted(maps.Keys(missing))
	return g
}

// inMain reports whether p belongs to a main module: the packages whose
// facts redisops exports (no module version).
func inMain(p *packages.Package) bool {
	return p.Module != nil && p.Module.Version == "" && p.Module.Main
}

// reach reports whether p is a client package or imports one, directly
// or through other packages.
func (g *Graph) reach(p *packages.Package) bool {
	if r, ok := g.reaches[p]; ok {
		return r
	}
	g.reaches[p] = false // import cycles cannot occur; this guards anyway
	r := g.isClient(p.PkgPath)
	for _, q := range p.Imports {
		if r {
			break
		}
		r = g.reach(q)
	}
	g.reaches[p] = r
	return r
}

// carries reports whether p can hold facts that matter: loaded from
// source, in the main module, reaching a client.
func (g *Graph) carries(p *packages.Package) bool {
	return g.full[p] && inMain(p) && g.reach(p)
}

// Link returns copies of roots for checker.Analyze in which each package's
// Imports hold only the packages that carry facts (copied the same way),
// so that the checker runs fact-producing analyzers on those and on no
// other dependency. The copies share everything else with the originals.
func (g *Graph) Link(roots []*packages.Package) []*packages.Package {
	copies := map[*packages.Package]*packages.Package{}
	var link func(p *packages.Package) *packages.Package
	link = func(p *packages.Package) *packages.Package {
		if c, ok := copies[p]; ok {
			return c
		}
		c := new(packages.Package)
		*c = *p
		c.Imports = nil
		copies[p] = c
		if g.carries(p) {
			for path, q := range p.Imports {
				if g.carries(q) {
					if c.Imports == nil {
						c.Imports = map[string]*packages.Package{}
					}
					c.Imports[path] = link(q)
				}
			}
		}
		return c
	}
	out := make([]*packages.Package, len(roots))
	for i, r := range roots {
		out[i] = link(r)
	}
	return out
}

// Linked counts the packages that carry facts among all packages reachable
// from roots: the ones the checker runs redisops on besides the roots
// themselves are among them.
func (g *Graph) Linked(roots []*packages.Package) int {
	n := 0
	packages.Visit(roots, nil, func(p *packages.Package) {
		if g.carries(p) {
			n++
		}
	})
	return n
}

// LinkLoaded links roots, among initial (the packages packages.Load
// returned, loaded from source with bodies), for checker.Analyze as
// lockvet's driver links them, for tests and hosts that load packages
// themselves: the checker then runs redisops on the main module's
// packages and on no dependency, even when the dependencies were loaded
// from source (LoadAllSyntax). Every package counts as reaching a client.
func LinkLoaded(initial, roots []*packages.Package) []*packages.Package {
	return Plan(initial, func(string) bool { return true }).Link(roots)
}
