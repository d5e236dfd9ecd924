package redisops

import (
	"cmp"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
)

// Lock helpers in one package are called from others: a cache package's
// Lock(ctx, key) and Unlock(ctx, key), used by the order and billing
// packages. What a helper does with its parameters is summarized where the
// helper is (as a declared wrapper would say it) and travels to its
// callers as an analysis fact on the helper's *types.Func. Every go/analysis
// host carries facts from a package to the packages that import it: go vet
// -vettool (in its .vetx files), golangci-lint, Bazel nogo, and lockvet's
// own driver, which loads only the main module's packages from source and
// links them so that facts flow between them and nowhere else
// (cmd/lockvet, docs/performance.md).
//
// At a call site, a helper with a fact is matched exactly like a declared
// wrapper (wrappers.go): every check sees the call as the client operation
// the helper performs.
//
// Facts are exported only for the main module's packages (what lockvet's
// driver loads from source), so that go vet, which runs lockvet on every
// dependency, reports what the lockvet command reports. Helpers in other
// modules are declared (-acquire-funcs, …).

// HelperFact is the fact exported for a function of an analysed package
// that is an inferred lock helper: its Summary (summary.go), which holds
// only plain fields. Its size is bounded: one summary per function, a
// few small fields and the function's and file's names.
type HelperFact struct {
	Summary Summary
}

// AFact marks HelperFact as an analysis fact.
func (*HelperFact) AFact() {}

// String is the summary as a declaration says it,
// "acquire-funcs:key=1,ttl=2"; the fact expectations of tests match it.
func (f *HelperFact) String() string {
	if f.Summary.Forward != "" {
		return "forwards " + f.Summary.Forward + ":cmd=" + strconv.Itoa(f.Summary.Cmd)
	}
	w := f.Summary.Wrapper()
	s := describeWrapper(&w)
	if f.Summary.Queued {
		s += " queued on " + strconv.Itoa(f.Summary.Batch)
	}
	if f.Summary.Scoped {
		s += " scoped"
	}
	return s
}

// describeWrapper writes w as its declaration's kind and options.
func describeWrapper(w *lvconfig.Wrapper) string {
	var opts []string
	if w.Key != nil {
		opts = append(opts, "key="+w.Key.String())
	}
	if w.Value != nil {
		opts = append(opts, "value="+w.Value.String())
	}
	switch {
	case w.NoTTL:
		opts = append(opts, "ttl=none")
	case w.TTL != nil:
		opts = append(opts, "ttl="+w.TTL.String())
	}
	if w.Unit != "" {
		opts = append(opts, "unit="+w.Unit)
	}
	s := w.Kind.Setting()
	if len(opts) > 0 {
		s += ":" + strings.Join(opts, ",")
	}
	return s
}

// exportsFacts reports whether the pass's package may export summaries:
// it belongs to a main module (go vet and lockvet's driver give main
// module packages no version; dependencies have one). Hosts that say
// nothing of modules (Module nil, or empty as for the standard library)
// export for every package that has summaries. A client's own packages
// never do: their calls are the client's operations, read by its adapter.
func exportsFacts(pass *analysis.Pass) bool {
	return (pass.Module == nil || pass.Module.Version == "") && !ClientPackage(pass.Pkg.Path())
}

// exportSummaries exports the summaries of the package's own functions
// (its helpers', or its forwarders', mirror_forward.go), one fact per
// function. Only functions callers in other packages can name are
// exported: exported functions and methods.
func exportSummaries(pass *analysis.Pass, sums map[*types.Func]*Summary) {
	if len(sums) == 0 || !exportsFacts(pass) {
		return
	}
	fns := make([]*types.Func, 0, len(sums))
	for fn := range sums {
		fns = append(fns, fn)
	}
	// Deterministic order (some hosts encode facts in it): by file name,
	// then offset. Pos alone is not: files are parsed in parallel, so
	// their bases in the FileSet differ between runs.
	slices.SortFunc(fns, func(a, b *types.Func) int {
		p, q := pass.Fset.Position(a.Pos()), pass.Fset.Position(b.Pos())
		return cmp.Or(cmp.Compare(p.Filename, q.Filename), cmp.Compare(p.Offset, q.Offset))
	})
	for _, fn := range fns {
		s := sums[fn]
		if fn = fn.Origin(); fn.Pkg() != pass.Pkg || !fn.Exported() || s == nil {
			continue
		}
		pass.ExportObjectFact(fn, &HelperFact{Summary: *s})
		factWork.Add(1)
	}
}

// factWork counts the fact transport's work (facts exported, imported
// facts read, calls looked up), for the test that it is linear in
// helpers and call sites.
var factWork atomic.Int64

// FactWork reports the fact transport's counted work in this process.
func FactWork() int64 { return factWork.Load() }

// importedSummaries returns the hook for summaries of imported functions
// (builder.imported) and the short names of those functions (the call
// walk's prefilter), from the facts the packages pass's package imports
// exported. Both are nil when there are none. The imported constructors
// of lock types (CtorFact) go to b.ctors and b.ctorNames.
func importedSummaries(pass *analysis.Pass, b *builder) (func(*types.Func) *Summary, map[string]bool) {
	if pass.AllObjectFacts == nil {
		return nil, nil
	}
	var sums map[*types.Func]*Summary
	var names map[string]bool
	for _, f := range pass.AllObjectFacts() {
		factWork.Add(1)
		fn, isFn := f.Object.(*types.Func)
		if cf, ok := f.Fact.(*CtorFact); ok && isFn && fn.Pkg() != pass.Pkg {
			if b.ctors == nil {
				b.ctors, b.ctorNames = map[*types.Func]*Ctor{}, map[string]bool{}
			}
			c := cf.Ctor
			b.ctors[fn], b.ctorNames[fn.Name()] = &c, true
			continue
		}
		h, ok := f.Fact.(*HelperFact)
		if !ok || !isFn || fn.Pkg() == pass.Pkg || ClientPackage(fn.Pkg().Path()) {
			continue
		}
		if sums == nil {
			sums, names = map[*types.Func]*Summary{}, map[string]bool{}
		}
		// A copy, not local to this package. Hosts that pass facts in
		// memory (lockvet's driver) hand over the exporter's value, with
		// its unexported fields set; gob (go vet) drops them.
		s := h.Summary
		s.local = false
		sums[fn] = &s
		names[fn.Name()] = true
	}
	if sums == nil {
		return nil, nil
	}
	return func(fn *types.Func) *Summary {
		factWork.Add(1)
		return sums[fn]
	}, names
}

// ClientPackage reports whether path is a package whose calls redisops
// reads (a Redis or memcached client, a lock library). A package that
// imports none of them, directly or through other packages, and no package
// of a declared wrapper, has no lock operations and exports no summaries:
// lockvet's driver links only the packages that do (cmd/lockvet).
//
// It is called on every string of an import's export data (lockvet as
// go vet's tool), so it allocates nothing for an adapter that knows its
// packages by path.
func ClientPackage(path string) bool {
	var fn *types.Func
	for _, a := range adapters {
		if pf, ok := a.(pathFamilier); ok {
			if pf.pathFamily(path) != "" {
				return true
			}
			continue
		}
		if fn == nil {
			fn = types.NewFunc(token.NoPos, types.NewPackage(path, "p"), "F", types.NewSignatureType(nil, nil, nil, nil, nil, false))
		}
		if a.family(fn) != "" {
			return true
		}
	}
	return false
}

// WrapperPackages are the packages of the functions cfg declares.
func WrapperPackages(cfg *lvconfig.Config) []string {
	if cfg == nil {
		return nil
	}
	var out []string
	for _, w := range cfg.Wrappers {
		name := strings.TrimPrefix(strings.TrimPrefix(w.Func, "("), "*")
		if i := strings.Index(name, ")"); i >= 0 {
			name = name[:i] // the receiver type, pkg/path.Type
		}
		if i := strings.LastIndex(name, "."); i > 0 {
			out = append(out, name[:i])
		}
	}
	return out
}
