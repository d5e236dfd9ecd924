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
	dc := declCall{d: d, w: w, fn: fn, sig: fn.Signature(), call: call, args: args}
	if !dc.fill(op) {
		return nil
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

// declCall is a call of a declared function w, with its arguments (the
// receiver of a method expression dropped).
type declCall struct {
	d    *declared
	w    *lvconfig.Wrapper
	fn   *types.Func
	sig  *types.Signature
	call *ast.CallExpr
	args []ast.Expr
}

// fill sets op's key, value and TTL from the declared parameters. It
// returns false when the call lacks one, or when a declaration does not
// fit the function (recorded in d.err).
func (c declCall) fill(op *Op) bool {
	w := c.w
	if w.Key != nil {
		i, ok := c.param("key", w.Key)
		if !ok {
			return false
		}
		switch {
		case c.isVariadic(i):
			if i <= len(c.args) {
				op.setVariadicKeys(c.call, c.args[i:])
			}
			op.KeysSpread = c.call.Ellipsis.IsValid()
		case i < len(c.args):
			op.Keys = []ast.Expr{c.args[i]}
		default:
			return false
		}
	}
	if w.Value != nil {
		v, ok := c.single("value", w.Value)
		if !ok {
			return false
		}
		op.Value = v
	}
	if w.TTL != nil {
		i, ok := c.param("ttl", w.TTL)
		if !ok {
			return false
		}
		ttl, ok := c.single("ttl", w.TTL)
		if !ok {
			return false
		}
		p := c.sig.Params().At(i)
		unit, ok := ttlUnit(w.Unit, p.Type())
		if !ok {
			c.d.fail(w, "ttl=%s: the parameter %s is a %s; say what it counts with unit=seconds or unit=millis", w.TTL, p.Name(), p.Type())
			return false
		}
		op.TTL, op.TTLUnit = ttl, unit
	}
	return true
}

// param resolves a declared parameter to its index.
func (c declCall) param(what string, p *lvconfig.Param) (int, bool) {
	params := c.sig.Params()
	if p.Index >= 0 {
		if p.Index >= params.Len() {
			c.d.fail(c.w, "%s=%d: %s has %d parameters (the receiver is not counted)", what, p.Index, c.fn.FullName(), params.Len())
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
	c.d.fail(c.w, "%s=%s: %s has no parameter %s (its parameters: %s)", what, p.Name, c.fn.FullName(), p.Name, strings.Join(names, ", "))
	return 0, false
}

func (c declCall) isVariadic(i int) bool { return c.sig.Variadic() && i == c.sig.Params().Len()-1 }

// single returns the argument for a non-variadic parameter.
func (c declCall) single(what string, p *lvconfig.Param) (ast.Expr, bool) {
	i, ok := c.param(what, p)
	if !ok {
		return nil, false
	}
	if c.isVariadic(i) {
		c.d.fail(c.w, "%s=%s: a %s cannot be a variadic parameter", what, p, what)
		return nil, false
	}
	if i >= len(c.args) {
		return nil, false
	}
	return c.args[i], true
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
// or (bool, error) as SetNX's Result does, (T…, bool, error) with the
// bool just before the error (a token and whether it was taken), or a
// last error alone.
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
	case n >= 3 && isBool(n-2) && isErr(n-1):
		// (token, ok, err): the bool before the error.
		out = callOutcome(info, o, BusyFalse, n-2, n-1, n)
	case n >= 1 && isErr(n-1):
		out = callOutcome(info, o, ErrOnly, -1, n-1, n)
	default:
		return Outcome{}, false
	}
	out.IsLock = true
	return out, true
}
