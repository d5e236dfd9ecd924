package analyzer_test

// docs/clients.md: which checks apply to which client, and how many test
// cases show it, counted from passes/testdata by running the checks the
// way their own tests do (analysistest asserts the same findings). Go
// test -run TestClientsDoc -update ./analyzer rewrites the file; a plain
// run fails when it is stale, or when a check that applies to a client
// has no finding or no silent case for it in the testdata.

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/factgraph"
)

var updateClients = flag.Bool("update", false, "rewrite docs/clients.md")

// client is a row of the table: a client family and the import paths
// (exact, or a prefix followed by /) whose use puts a test function in it.
type client struct {
	Name  string
	Paths []string
	// NA maps a check ID that does not apply to the reason.
	NA map[string]string
	// Partial is set on a row the testdata covers for some checks only:
	// its empty cells show as 0 / 0 / 0 and fail nothing.
	Partial bool
}

// clients in the order a function using several is classified: the most
// specific first (rueidiscompat and rueidislock before rueidis, a lock
// library before the client under it).
var clients = []client{
	{Name: "declared wrappers", NA: map[string]string{
		"LV102": "a declared wrapper is one call that does its own round trips; it cannot be queued in a MULTI or a pipeline, and there is no declaration for a queued one",
		"LV202": "there is no declaration for a read of the lock's value (get-funcs), so a GET-compare-delete through a wrapper cannot be seen; the wrapper's own body is analysed with its client",
		"LV107": "there is no declaration for a read of the key or a plain write, so a check-then-set through wrappers cannot be seen; the wrapper's own body is analysed with its client",
	}},
	// A project's own interfaces, wrapper types and forwarders of Do
	// (redisops/mirror.go): the in-house package of the testdata.
	{Name: "project layers", Paths: []string{"lockvet.test/redisops/mirror/store", "lockvet.test/unsafeunlock/mirroreval", "lockvet.test/checkthendel/mirroreval"}, Partial: true},
	{Name: "lock libraries", Paths: []string{"github.com/go-redsync/redsync/v4", "github.com/bsm/redislock", "github.com/redis/rueidis/rueidislock"}, NA: map[string]string{
		"LV101": "redsync, bsm/redislock and rueidislock acquire with a TTL in one command; their internals are never reported",
		"LV102": "the libraries queue nothing in user code",
		"LV103": "every acquire of these libraries has a TTL (expiry option or default)",
		"LV106": "their release is a method of the lock object (or, in rueidislock, the cancel of the context), not a key operation, so where the locked region ends is not known; rueidislock renews its locks itself",
		"LV201": "their Unlock is owner-checked (compare-and-delete script)",
		"LV202": "their Unlock is owner-checked (compare-and-delete script)",
		"LV203": "their Extend/Refresh is owner-checked",
		"LV204": "they write a random token of their own",
		"LV107": "they take their locks in one command (SET NX or a script) themselves",
	}},
	{Name: "rueidiscompat", Paths: []string{"github.com/redis/rueidis/rueidiscompat"}},
	{Name: "redigo", Paths: []string{"github.com/gomodule/redigo/redis"}},
	{Name: "gomemcache", Paths: []string{"github.com/bradfitz/gomemcache/memcache"}, NA: map[string]string{
		"LV102": "memcached has no MULTI/EXEC and gomemcache no pipeline: every command is its own round trip, which is LV101",
		"LV107": "not read yet: a Get, then a Set when it returned ErrCacheMiss, races the same way (memcached's Add is the one-step claim), but LV107 does not follow gomemcache's replies",
	}},
	{Name: "rueidis", Paths: []string{"github.com/redis/rueidis"}},
	{Name: "go-redis v9", Paths: []string{"github.com/redis/go-redis/v9"}},
	{Name: "go-redis v8", Paths: []string{"github.com/go-redis/redis/v8"}},
	{Name: "go-redis v7", Paths: []string{"github.com/go-redis/redis/v7"}},
	{Name: "go-redis v6", Paths: []string{"github.com/go-redis/redis"}},
}

// cell is the testdata of one check for one client.
type cell struct{ Bug, Silent, Fixed int }

// classify returns the index in clients of the client n (a function)
// uses, or -1.
func classify(info *types.Info, n ast.Node, decls map[types.Object]*ast.FuncDecl) int {
	return classifySeen(info, n, decls, map[ast.Node]bool{})
}

// classifySeen is classify, following calls of the package's own
// functions (inferred helpers: a caller uses the client its helpers use),
// each function once.
func classifySeen(info *types.Info, n ast.Node, decls map[types.Object]*ast.FuncDecl, seen map[ast.Node]bool) int {
	seen[n] = true
	best := -1
	ast.Inspect(n, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj := info.Uses[id]
		if obj == nil || obj.Pkg() == nil {
			return true
		}
		if fn, ok := obj.(*types.Func); ok {
			if d := decls[fn.Origin()]; d != nil && !seen[d] {
				if c := classifySeen(info, d, decls, seen); c >= 0 && (best < 0 || c < best) {
					best = c
				}
			}
		}
		path := obj.Pkg().Path()
		for i, c := range clients {
			if best >= 0 && i >= best {
				break
			}
			for _, p := range c.Paths {
				if path == p || strings.HasPrefix(path, p+"/") {
					best = i
				}
			}
		}
		return true
	})
	return best
}

// testdataPkg is a package of passes/testdata that tests one check.
type testdataPkg struct {
	pkg   *packages.Package
	check string // the check's name: setnxexpire, …
	tree  string // "", "redis84" or "wrappers"
}

func clientCounts(t *testing.T) (map[string]map[string]*cell, []*analyzer.Rule) {
	rules := analyzer.Rules()
	names := map[string]string{} // name → ID
	for _, r := range rules {
		names[r.Name] = r.ID
	}
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Dir:   testData(t),
		Env:   append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod"),
		Tests: true,
	}
	var patterns []string
	for _, r := range rules {
		patterns = append(patterns, "./"+r.Name+"/...", "./redis84/"+r.Name+"/...", "./wrappers/"+r.Name+"/...")
	}
	// Patterns that match nothing are reported as package errors; keep
	// the packages that loaded.
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	// A package with test files comes twice: keep the variant with them.
	byPath := map[string]*packages.Package{}
	for _, p := range pkgs {
		if strings.HasSuffix(p.PkgPath, ".test") || len(p.Syntax) == 0 {
			continue
		}
		if old := byPath[p.PkgPath]; old == nil || len(p.Syntax) > len(old.Syntax) {
			byPath[p.PkgPath] = p
		}
	}
	groups := map[[2]string][]*testdataPkg{} // {tree, check} → packages
	for _, path := range slices.Sorted(func(yield func(string) bool) {
		for k := range byPath {
			if !yield(k) {
				return
			}
		}
	}) {
		p := byPath[path]
		if len(p.Errors) > 0 {
			t.Fatalf("%s does not type-check: %v", path, p.Errors)
		}
		parts := strings.Split(strings.TrimPrefix(path, "lockvet.test/"), "/")
		tp := &testdataPkg{pkg: p, check: parts[0]}
		if (parts[0] == "redis84" || parts[0] == "wrappers") && len(parts) > 1 {
			tp.tree, tp.check = parts[0], parts[1]
		}
		if names[tp.check] == "" {
			continue // a helper package (wrappers/store)
		}
		groups[[2]string{tp.tree, tp.check}] = append(groups[[2]string{tp.tree, tp.check}], tp)
	}

	out := map[string]map[string]*cell{} // client → check ID → cell
	add := func(ci int, id string) *cell {
		name := clients[ci].Name
		if out[name] == nil {
			out[name] = map[string]*cell{}
		}
		if out[name][id] == nil {
			out[name][id] = &cell{}
		}
		return out[name][id]
	}
	for _, key := range slices.SortedFunc(func(yield func([2]string) bool) {
		for k := range groups {
			if !yield(k) {
				return
			}
		}
	}, func(a, b [2]string) int { return strings.Compare(a[0]+"/"+a[1], b[0]+"/"+b[1]) }) {
		tree, check := key[0], key[1]
		var c analyzer.Config
		switch tree {
		case "wrappers":
			c = wrapperConfig
		case "redis84":
			c.RedisVersion = "8.4"
		}
		c.Checks = []string{check}
		as, err := analyzer.Analyzers(&c)
		if err != nil {
			t.Fatal(err)
		}
		var roots []*packages.Package
		for _, tp := range groups[key] {
			roots = append(roots, tp.pkg)
		}
		g, err := checker.Analyze(as, factgraph.LinkLoaded(pkgs, roots), nil)
		if err != nil {
			t.Fatal(err)
		}
		id := names[check]
		for _, act := range g.Roots {
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			diags := act.Diagnostics
			decls := map[types.Object]*ast.FuncDecl{}
			for _, f := range act.Package.Syntax {
				for _, decl := range f.Decls {
					if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
						decls[act.Package.TypesInfo.Defs[fd.Name]] = fd
					}
				}
			}
			for _, f := range act.Package.Syntax {
				for _, decl := range f.Decls {
					fd, ok := decl.(*ast.FuncDecl)
					if !ok || fd.Body == nil {
						continue
					}
					ci := classify(act.Package.TypesInfo, fd, decls)
					if tree == "wrappers" {
						ci = 0
					}
					var in []analysis.Diagnostic
					diags = slices.DeleteFunc(diags, func(d analysis.Diagnostic) bool {
						if fd.Pos() <= d.Pos && d.Pos < fd.End() {
							in = append(in, d)
							return true
						}
						return false
					})
					if ci < 0 {
						if len(in) > 0 {
							t.Errorf("%s: finding in a function that uses no known client", act.Package.Fset.Position(in[0].Pos))
						}
						continue
					}
					cl := add(ci, id)
					if len(in) == 0 {
						cl.Silent++
					}
					for _, d := range in {
						cl.Bug++
						if len(d.SuggestedFixes) > 0 {
							cl.Fixed++
						}
					}
				}
			}
			// Left in diags: findings outside functions, about
			// //lockvet:ignore directives, not about a client.
		}
	}
	return out, rules
}

func clientsDoc(counts map[string]map[string]*cell, rules []*analyzer.Rule) []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# lockvet and each client\n\n")
	p("Generated by `go test ./analyzer -run TestClientsDoc -update` from the analysistest data in [`passes/testdata`](../passes/testdata); `go test ./analyzer` fails when this file is stale, or when a check that applies to a client has no finding or no silent case for it there. Do not edit.\n\n")
	p("Each cell is **bugs / silent / fixed** for one check and one client, from the same packages, configuration and analyzers as the check's own tests, against the real client modules:\n\n")
	p("- **bugs**: findings the testdata expects (each one a `// want` that analysistest asserts);\n")
	p("- **silent**: test functions that use the client and where the check must report nothing (correct idioms, other keys, lookalikes);\n")
	p("- **fixed**: findings that come with a suggested fix; the golden files check the fixed text and that the fixed code type-checks and is clean.\n\n")
	p("A function is counted for the most specific client it uses: code that wraps rueidis in rueidiscompat counts for rueidiscompat, redsync over go-redis for the lock libraries. A function that calls the testdata's in-house package (`redisops/mirror/store`: interfaces that mirror a client, with go-redis or plain results, and a forwarder of redigo's `Do`), or a package's own interfaces without Eval (`unsafeunlock/mirroreval`, `checkthendel/mirroreval`), counts for project layers, whose testdata covers LV101, LV105 and LV201 so far. Packages under `passes/testdata/wrappers` count for declared wrappers (an in-house store around go-redis, declared through the same configuration the CLI flags and golangci settings set). Findings through a declared wrapper never carry a fix: lockvet cannot see how the wrapper's arguments reach Redis.\n\n")
	p("| client |")
	for _, r := range rules {
		p(" [%s](checks.md#%s) |", r.ID, strings.ToLower(r.ID))
	}
	p(" total |\n|---|")
	for range rules {
		p("---|")
	}
	p("---|\n")
	var notes []string
	for _, c := range clients {
		p("| %s |", c.Name)
		var tot cell
		for _, r := range rules {
			if why, ok := c.NA[r.ID]; ok {
				notes = append(notes, fmt.Sprintf("- **%s, %s**: %s.", c.Name, r.ID, why))
				if x := counts[c.Name][r.ID]; x != nil && x.Silent > 0 {
					p(" n/a (%d silent) |", x.Silent)
					tot.Silent += x.Silent
				} else {
					p(" n/a |")
				}
				continue
			}
			x := counts[c.Name][r.ID]
			if x == nil {
				x = &cell{}
			}
			p(" %d / %d / %d |", x.Bug, x.Silent, x.Fixed)
			tot.Bug, tot.Silent, tot.Fixed = tot.Bug+x.Bug, tot.Silent+x.Silent, tot.Fixed+x.Fixed
		}
		p(" %d / %d / %d |\n", tot.Bug, tot.Silent, tot.Fixed)
	}
	p("\n## Checks that do not apply\n\n")
	p("n/a cells, and why. Where the testdata has code of that client in the check's packages, the cell says how many of its functions the check stays silent on.\n\n")
	for _, n := range notes {
		p("%s\n", n)
	}
	p("\n## Idioms lockvet accepts and writes, per client\n\n")
	p("| client | acquire with a TTL | owner-checked release | owner-checked renewal | fixes |\n|---|---|---|---|---|\n")
	p("| go-redis v6–v9, rueidiscompat | `SetNX(ctx, k, token, ttl)`, `SetArgs` with `Mode: \"NX\"` and `TTL` | compare-and-delete `redis.NewScript(…).Run`, `DelExArgs` `IFEQ` (Redis ≥ 8.4) | compare-and-pexpire script | LV101–LV105, LV201–LV203 where exact |\n")
	p("| redigo | `Do(\"SET\", k, token, \"NX\", \"PX\", ms)` with the reply checked for nil | `redis.NewScript(1, src).Do(c, k, token)`, `DELEX k IFEQ token` | the same with PEXPIRE | SET NX replies OK/nil where SETNX replied 1/0: a SETNX is rewritten when its reply is dropped, queued, or read with redis.Bool in an assignment, which becomes `_, err := redis.String(…)`, `ok := err == nil` and redis.ErrNil cleared, so busy stays (false, nil) |\n")
	p("| rueidis | `B().Set().Key(k).Value(token).Nx().PxMilliseconds(ms)`, busy as `rueidis.IsRedisNil(err)` | `rueidis.NewLuaScript(src).Exec`, `B().Delex()…Ifeq(token)` | the same with PEXPIRE | a SETNX read with AsBool or Error becomes `err := ….Error()`, `ok := err == nil` and the nil reply cleared, so busy stays (false, nil) |\n")
	p("| gomemcache | `Add(&Item{…, Expiration: s})`, busy as `memcache.ErrNotStored` | `Get`, compare `Value`, `CompareAndSwap` with `Expiration: -1` (memcached has no scripts) | `Get`, compare, `CompareAndSwap` with the new `Expiration` | LV101 (Expiration set in the Add's literal); LV201–LV203 are reported without a fix, because a Get/compare/CompareAndSwap rewrite returns errors (`ErrCASConflict`) the Delete or Touch it replaces never did |\n")
	p("| lock libraries | redsync `Lock`/`TryLock`, bsm/redislock `Obtain`, rueidislock `WithContext` with the error checked | their `Unlock` | their `Extend` | LV105 only: a dropped acquire error |\n")
	p("| declared wrappers | as declared (`acquire-funcs` with a `ttl` argument) | `safe-release-funcs` | — | none |\n")
	return b.Bytes()
}

func TestClientsDoc(t *testing.T) {
	t.Parallel()
	counts, rules := clientCounts(t)
	for _, c := range clients {
		for _, r := range rules {
			if _, na := c.NA[r.ID]; na || c.Partial {
				continue
			}
			x := counts[c.Name][r.ID]
			if x == nil || x.Bug == 0 || x.Silent == 0 {
				t.Errorf("%s applies to %s, but passes/testdata has %+v for it: add a finding and a silent case, or say why it does not apply", r.ID, c.Name, x)
			}
		}
	}
	file := filepath.Join("..", "docs", "clients.md")
	doc := clientsDoc(counts, rules)
	if *updateClients {
		if err := os.WriteFile(file, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(file)
	if err != nil || !bytes.Equal(old, doc) {
		t.Errorf("%s is stale: go test ./analyzer -run TestClientsDoc -update", file)
	}
}
