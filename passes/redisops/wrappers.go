package redisops

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/internal/constval"
)

// declared is the adapter, built for one run from the configuration, for
// the in-house functions declared as lock operations (lvconfig.Wrapper):
// a call of one becomes the op it stands for, with the key, value and TTL
// taken from the declared parameters. A function is matched by its
// qualified name only; nothing is inferred from names or bodies.
//
//   - acquire-funcs: Acquire. ttl=none, or a constant TTL ≤ 0, means no
//     TTL (NoTTL); with no ttl declared the function sets its own.
//   - expire-funcs: Expire.
//   - release-funcs: Delete, as DEL.
//   - safe-release-funcs: Script, standing for the canonical
//     compare-and-delete script (ScriptSrc is lua.UnlockSrc, Args the
//     token when declared): a release that checks the owner.
//
// The adapter has no fix capabilities (no releaser, scriptRunner or
// ttlSetter): checks report declared calls without fixes. It describes
// acquire outcomes from the function's results: (bool) or (bool, error)
// as SetNX does (BusyFalse), a last error result alone as ErrOnly.
type declared struct {
	byName map[string]*lvconfig.Wrapper // by lvconfig.Wrapper.MatchName
	names  map[string]bool              // the functions' own names, for the prefilter
	err    error                        // the first declaration that does not fit its function
}

// The capabilities this adapter has (capabilities.go).
var (
	_ adapter  = (*declared)(nil)
	_ outcomer = (*declared)(nil)
)

// newDeclared returns the adapter for cfg's wrappers, or nil when there
// are none.
func newDeclared(cfg *lvconfig.Config) *declared {
	if cfg == nil || len(cfg.Wrappers) == 0 {
		return nil
	}
	d := &declared{byName: map[string]*lvconfig.Wrapper{}, names: map[string]bool{}}
	for i := range cfg.Wrappers {
		w := &cfg.Wrappers[i]
		d.byName[w.MatchName()] = w
		d.names[w.ShortName()] = true
	}
	return d
}

// has reports whether a declared function has this name (the prefilter).
func (d *declared) has(name string) bool { return d != nil && d.names[name] }

// lookup returns the declaration of fn, or nil.
func (d *declared) lookup(fn *types.Func) *lvconfig.Wrapper {
	if d == nil {
		return nil
	}
	return d.byName[fullName(fn.Origin())]
}

// fullName is fn's qualified name with its receiver's '*' and type
// parameters dropped: (pkg.T).M, pkg.F.
func fullName(fn *types.Func) string {
	s := fn.FullName()
	if !strings.HasPrefix(s, "(") {
		return s
	}
	s = strings.Replace(s, "(*", "(", 1)
	if i, j := strings.Index(s, "["), strings.Index(s, ")"); i >= 0 && i < j {
		s = s[:i] + s[j:]
	}
	return s
}

func (d *declared) family(fn *types.Func) string {
	if d.lookup(fn) != nil {
		return "declared"
	}
	return ""
}

func (d *declared) fail(w *lvconfig.Wrapper, format string, args ...any) *Op {
	if d.err == nil {
		d.err = fmt.Errorf("%s %q: %s", w.Kind.Setting(), w.Spec, fmt.Sprintf(format, args...))
	}
	return nil
}

func (d *declared) op(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func) *Op {
	w := d.lookup(fn)
	if w == nil {
		return nil
	}
	info := pass.TypesInfo
	sig := fn.Signature()
	args := call.Args
	// A method expression, (*T).M(recv, …), passes the receiver first.
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodExpr {
			if len(args) == 0 {
				return nil
			}
			args = args[1:]
		}
	}
	op := &Op{Call: call, Client: "declared", Method: fn.Name()}

	// param resolves a declared parameter to its index.
	param := func(what string, p *lvconfig.Param) (int, bool) {
		params := sig.Params()
		if p.Index >= 0 {
			if p.Index >= params.Len() {
				d.fail(w, "%s=%d: %s has %d parameters (the receiver is not counted)", what, p.Index, fn.FullName(), params.Len())
				return 0, false
			}
			return p.Index, true
		}
		var names []string
		for i := range params.Len() {
			if params.At(i).Name() == p.Name {
				return i, true
			}
			names = append(names, params.At(i).Name())
		}
		d.fail(w, "%s=%s: %s has no parameter %s (its parameters: %s)", what, p.Name, fn.FullName(), p.Name, strings.Join(names, ", "))
		return 0, false
	}
	isVariadic := func(i int) bool { return sig.Variadic() && i == sig.Params().Len()-1 }
	// single returns the argument for a non-variadic parameter.
	single := func(what string, p *lvconfig.Param) (ast.Expr, bool) {
		i, ok := param(what, p)
		if !ok {
			return nil, false
		}
		if isVariadic(i) {
			d.fail(w, "%s=%s: a %s cannot be a variadic parameter", what, p, what)
			return nil, false
		}
		if i >= len(args) {
			return nil, false
		}
		return args[i], true
	}

	if w.Key != nil {
		i, ok := param("key", w.Key)
		if !ok {
			return nil
		}
		switch {
		case isVariadic(i):
			if i <= len(args) {
				op.Keys = variadic(call, args[i:])
			}
			op.KeysSpread = call.Ellipsis.IsValid()
		case i < len(args):
			op.Keys = []ast.Expr{args[i]}
		default:
			return nil
		}
	}
	if w.Value != nil {
		v, ok := single("value", w.Value)
		if !ok {
			return nil
		}
		op.Value = v
	}
	if w.TTL != nil {
		i, ok := param("ttl", w.TTL)
		if !ok {
			return nil
		}
		ttl, ok := single("ttl", w.TTL)
		if !ok {
			return nil
		}
		unit, ok := ttlUnit(w.Unit, sig.Params().At(i).Type())
		if !ok {
			return d.fail(w, "ttl=%s: the parameter %s is a %s; say what it counts with unit=seconds or unit=millis",
				w.TTL, sig.Params().At(i).Name(), sig.Params().At(i).Type())
		}
		op.TTL, op.TTLUnit = ttl, unit
	}

	switch w.Kind {
	case lvconfig.AcquireFunc:
		op.Kind = Acquire
		if w.NoTTL {
			op.NoTTL = true
		} else if v := constval.Int(info, op.TTL); v != nil && *v <= 0 {
			op.NoTTL = true
		}
	case lvconfig.ExpireFunc:
		op.Kind = Expire
	case lvconfig.ReleaseFunc:
		op.Kind = Delete
	case lvconfig.SafeReleaseFunc:
		op.Kind = Script
		op.ScriptSrc = lua.UnlockSrc
		if len(op.Keys) > 1 {
			op.Keys = op.Keys[:1]
		}
		if op.Value != nil {
			op.Args, op.Value = []ast.Expr{op.Value}, nil
		}
	default:
		return nil
	}
	if len(op.Keys) == 0 && !op.KeysSpread && w.Kind != lvconfig.AcquireFunc {
		return nil
	}
	return op
}

// ttlUnit is the declared unit, or the one the parameter's type implies.
func ttlUnit(declared string, t types.Type) (Unit, bool) {
	switch declared {
	case lvconfig.UnitDuration:
		return Duration, true
	case lvconfig.UnitSeconds:
		return Seconds, true
	case lvconfig.UnitMillis:
		return Millis, true
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" {
		switch n.Obj().Name() {
		case "Duration":
			return Duration, true
		case "Time":
			return Time, true
		}
	}
	return NoUnit, false
}

// outcome: a declared acquire reports its outcome in its results, (bool)
// or (bool, error) as SetNX's Result does, or a last error alone.
func (d *declared) outcome(info *types.Info, o *Op) (Outcome, bool) {
	sig, ok := info.TypeOf(o.Call.Fun).(*types.Signature)
	if !ok {
		return Outcome{}, false
	}
	rs := sig.Results()
	n := rs.Len()
	isBool := func(i int) bool {
		b, ok := rs.At(i).Type().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Bool
	}
	isErr := func(i int) bool { return types.Identical(rs.At(i).Type(), types.Universe.Lookup("error").Type()) }
	var out Outcome
	switch {
	case n == 1 && isBool(0):
		out = callOutcome(info, o, BusyFalse, 0, -1, 1)
	case n == 2 && isBool(0) && isErr(1):
		out = callOutcome(info, o, BusyFalse, 0, 1, 2)
	case n >= 1 && isErr(n-1):
		out = callOutcome(info, o, ErrOnly, -1, n-1, n)
	default:
		return Outcome{}, false
	}
	out.IsLock = true
	return out, true
}
