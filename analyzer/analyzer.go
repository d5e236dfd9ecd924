// Package analyzer is lockvet's public face: the registry of checks and a
// constructor that builds a fresh, independently configured set of
// go/analysis analyzers. Any go/analysis host (the lockvet CLI, go vet,
// golangci-lint, Bazel nogo) can run them.
package analyzer

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/acquireresult"
	"github.com/lockvet/lockvet/passes/checkthendel"
	"github.com/lockvet/lockvet/passes/checkthenset"
	"github.com/lockvet/lockvet/passes/constvalue"
	"github.com/lockvet/lockvet/passes/inventory"
	"github.com/lockvet/lockvet/passes/noexpire"
	"github.com/lockvet/lockvet/passes/outlive"
	"github.com/lockvet/lockvet/passes/redisops"
	"github.com/lockvet/lockvet/passes/setnxexpire"
	"github.com/lockvet/lockvet/passes/ttlunit"
	"github.com/lockvet/lockvet/passes/txacquire"
	"github.com/lockvet/lockvet/passes/unsaferenew"
	"github.com/lockvet/lockvet/passes/unsafeunlock"
)

// Rule is a check's descriptor: ID, analyzer name, title, rationale,
// examples, severity.
type Rule = rules.Rule

// Check is a registered check: its descriptor and its constructor.
type Check struct {
	Rule *Rule
	New  func(ops *analysis.Analyzer, cfg *lvconfig.Config) *analysis.Analyzer
}

// registry lists every check, in ID order.
var registry = []Check{
	{setnxexpire.Rule, setnxexpire.New},
	{txacquire.Rule, txacquire.New},
	{noexpire.Rule, noexpire.New},
	{ttlunit.Rule, ttlunit.New},
	{acquireresult.Rule, acquireresult.New},
	{outlive.Rule, outlive.New},
	{checkthenset.Rule, checkthenset.New},
	{unsafeunlock.Rule, unsafeunlock.New},
	{checkthendel.Rule, checkthendel.New},
	{unsaferenew.Rule, unsaferenew.New},
	{constvalue.Rule, constvalue.New},
}

// Rules returns every check's descriptor, in ID order.
func Rules() []*Rule {
	out := make([]*Rule, len(registry))
	for i, c := range registry {
		out[i] = c.Rule
	}
	return out
}

// Lookup finds a rule by ID ("LV101", any case) or analyzer name
// ("setnxexpire").
func Lookup(idOrName string) *Rule {
	for _, c := range registry {
		if strings.EqualFold(c.Rule.ID, idOrName) || c.Rule.Name == idOrName {
			return c.Rule
		}
	}
	return nil
}

// Config configures a set of analyzers.
type Config struct {
	// Checks enables only these checks (IDs or names); empty means all.
	Checks []string
	// Disable turns these checks off (IDs or names).
	Disable []string
	// RedisVersion is the oldest Redis server the code runs against
	// ("7.2", "8.4"); it selects which fixes are offered.
	RedisVersion string
	// IncludeGenerated also reports findings in generated files.
	IncludeGenerated bool
	// AcquireFuncs, ExpireFuncs, ReleaseFuncs and SafeReleaseFuncs declare
	// in-house functions that take a lock (SET NX), set its TTL (EXPIRE),
	// delete it (DEL) and delete it only while it holds a token
	// (compare-and-delete). Their calls take part in every check like the
	// client calls they stand for; undeclared functions are never taken
	// for wrappers. Each string declares one function, or several
	// separated by ';', as FUNC[:OPTION,...]: FUNC is pkg/path.Func or
	// (*pkg/path.Type).Method, and the options name the parameters (by
	// 0-based position, the receiver not counted, or by name) that carry
	// key=, value= and ttl= (ttl=none: the acquire sets no TTL), and
	// unit=duration|seconds|millis for an integer TTL. Example:
	// "(*example.com/cache.Store).TryLock:key=1,value=2,ttl=3".
	AcquireFuncs     []string
	ExpireFuncs      []string
	ReleaseFuncs     []string
	SafeReleaseFuncs []string
	// Module is, for a host that loads the whole main module in one
	// process (the lockvet command), where it records the loaded
	// packages before analysis: fixes that change a helper's signature
	// then edit its callers in the module's other packages too. Nil
	// elsewhere.
	Module *Module
}

// Module is the host's view of the whole main module (Config.Module).
type Module = lvconfig.Module

// ModulePackage is one package of a Module.
type ModulePackage = lvconfig.ModulePackage

// Analyzers returns fresh analyzers for the checks cfg enables (all when
// cfg is nil). Each call builds new analyzer values; nothing global is
// changed, so differently configured sets can run side by side.
func Analyzers(cfg *Config) ([]*analysis.Analyzer, error) {
	checks, _, err := analyzers(cfg)
	return checks, err
}

// Inventory returns fresh analyzers for the checks cfg enables, as
// Analyzers does, and one more that lists the lock sites of a package
// (passes/inventory): its Result, an *inventory.Result, is built from the
// operations the checks read. It reports nothing.
func Inventory(cfg *Config) (checks []*analysis.Analyzer, inv *analysis.Analyzer, err error) {
	checks, ops, err := analyzers(cfg)
	if err != nil {
		return nil, nil, err
	}
	return checks, inventory.New(ops), nil
}

// analyzers builds the checks cfg enables and the op model they share.
func analyzers(cfg *Config) ([]*analysis.Analyzer, *analysis.Analyzer, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	lc, err := lvConfig(cfg)
	if err != nil {
		return nil, nil, err
	}
	for _, name := range slices.Concat(cfg.Checks, cfg.Disable) {
		if Lookup(name) == nil {
			return nil, nil, fmt.Errorf("unknown check %q (known: %s)", name, known())
		}
	}
	ops := redisops.New(lc)
	var out []*analysis.Analyzer
	for _, c := range registry {
		if len(cfg.Checks) > 0 && !matches(cfg.Checks, c.Rule) || matches(cfg.Disable, c.Rule) {
			continue
		}
		out = append(out, c.New(ops, lc))
	}
	return out, ops, nil
}

func matches(list []string, r *Rule) bool {
	for _, s := range list {
		if strings.EqualFold(s, r.ID) || s == r.Name {
			return true
		}
	}
	return false
}

func known() string {
	var ids []string
	for _, c := range registry {
		ids = append(ids, c.Rule.ID)
	}
	return strings.Join(ids, ", ")
}

// Rewriting returns a copy of a whose diagnostics pass through edit before
// they are reported: how a host adapts lockvet's findings to what it shows
// (the check ID in go vet's message, one suggested fix for golangci-lint).
func Rewriting(a *analysis.Analyzer, edit func(*analysis.Diagnostic)) *analysis.Analyzer {
	w := *a
	run := a.Run
	w.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		report := pass.Report
		p.Report = func(d analysis.Diagnostic) {
			edit(&d)
			report(d)
		}
		return run(&p)
	}
	return &w
}

// lvConfig is the analyzers' configuration for cfg.
func lvConfig(cfg *Config) (*lvconfig.Config, error) {
	lc := &lvconfig.Config{RedisVersion: cfg.RedisVersion, IncludeGenerated: cfg.IncludeGenerated, Module: cfg.Module}
	for _, d := range []struct {
		kind  lvconfig.WrapperKind
		specs []string
	}{
		{lvconfig.AcquireFunc, cfg.AcquireFuncs},
		{lvconfig.ExpireFunc, cfg.ExpireFuncs},
		{lvconfig.ReleaseFunc, cfg.ReleaseFuncs},
		{lvconfig.SafeReleaseFunc, cfg.SafeReleaseFuncs},
	} {
		for _, spec := range d.specs {
			ws, err := lvconfig.ParseWrappers(d.kind, spec)
			if err != nil {
				return nil, err
			}
			lc.Wrappers = append(lc.Wrappers, ws...)
		}
	}
	if err := lc.Validate(); err != nil {
		return nil, err
	}
	return lc, nil
}

// LockPackages returns whether a package's calls can be lock operations
// under cfg: a client or lock library lockvet reads, or the package of a
// declared wrapper. A package that imports none of them, directly or not,
// has no lock helpers to share with other packages; drivers that carry
// redisops' facts need carry them only between packages that do
// (lockvet's own driver does so).
func LockPackages(cfg *Config) (func(path string) bool, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	lc, err := lvConfig(cfg)
	if err != nil {
		return nil, err
	}
	wrappers := map[string]bool{}
	for _, p := range redisops.WrapperPackages(lc) {
		wrappers[p] = true
	}
	return func(path string) bool { return wrappers[path] || redisops.ClientPackage(path) }, nil
}
