package lvconfig

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
)

// Declared wrappers are in-house functions that perform one lock operation
// on Redis (a Store.TryLock around SET NX, a Store.Unlock around DEL). The
// configuration names them, with the parameters that carry the key, the
// value and the TTL, and the checks then treat their calls exactly like
// the client calls they stand for. A function that is not declared is never
// taken for a wrapper, whatever its name.
//
// One declaration is a string:
//
//	FUNC[:OPTION,OPTION...]
//
// FUNC is the function's qualified name as go/types writes it:
// pkg/path.Func for a function, (*pkg/path.Type).Method or
// (pkg/path.Type).Method for a method (either form matches the method,
// whatever its receiver). Import paths contain no ':', ',', ';', '=' or
// white space, so the first ':' ends FUNC and the declaration is never
// ambiguous.
//
// Each OPTION is NAME=PARAM, where PARAM is a parameter of FUNC, by its
// 0-based position (the receiver is not counted; a context.Context is) or
// by its name:
//
//	key=PARAM    the lock key (a variadic parameter: every key passed)
//	value=PARAM  the value written (acquire) or the token compared (safe release)
//	ttl=PARAM    the TTL; acquire-funcs also take ttl=none: the function
//	             sets no TTL (as SETNX)
//	unit=UNIT    what the TTL means: duration (a time.Duration), seconds or
//	             millis (integer counts); by default it follows the
//	             parameter's type (time.Duration, or time.Time for an
//	             absolute expiry), and an integer TTL must say its unit
//
// Which options a kind takes, and which it needs:
//
//	acquire-funcs       key, value, ttl, unit (key: without it, only the
//	                    acquire's outcome is checked)
//	expire-funcs        key (required), ttl, unit
//	release-funcs       key (required)
//	safe-release-funcs  key (required), value
//
// An acquire with a constant TTL ≤ 0 is read as an acquire with no TTL, as
// for SetNX. An acquire's results say how it reports the outcome: (bool)
// or (bool, error), true when the lock was taken and false, with a nil
// error, when another holder has it; or a last result of type error, nil
// exactly when the lock was taken. A safe release deletes the key only
// while it holds the given token, as a compare-and-delete script does; a
// release deletes it unconditionally, as DEL does.
//
// The command-line flags and the golangci-lint settings of the same names
// take these strings; a flag may be repeated, and one value may hold
// several declarations separated by ';'.

// WrapperKind is the lock operation a declared wrapper performs.
type WrapperKind uint8

const (
	// AcquireFunc takes a lock: SET NX.
	AcquireFunc WrapperKind = iota + 1
	// ExpireFunc sets or extends a lock's TTL: EXPIRE.
	ExpireFunc
	// ReleaseFunc deletes a lock without checking its owner: DEL.
	ReleaseFunc
	// SafeReleaseFunc deletes a lock only while it holds the caller's
	// token: a compare-and-delete script.
	SafeReleaseFunc
)

var wrapperSettings = [...]string{
	AcquireFunc:     "acquire-funcs",
	ExpireFunc:      "expire-funcs",
	ReleaseFunc:     "release-funcs",
	SafeReleaseFunc: "safe-release-funcs",
}

// Setting is the name of the flag and of the golangci-lint setting that
// declares wrappers of this kind ("acquire-funcs").
func (k WrapperKind) Setting() string {
	if int(k) < len(wrapperSettings) && wrapperSettings[k] != "" {
		return wrapperSettings[k]
	}
	return "unknown-funcs"
}

// options each kind accepts, and the ones it needs.
var (
	wrapperOptions = map[WrapperKind][]string{
		AcquireFunc:     {"key", "value", "ttl", "unit"},
		ExpireFunc:      {"key", "ttl", "unit"},
		ReleaseFunc:     {"key"},
		SafeReleaseFunc: {"key", "value"},
	}
	wrapperRequired = map[WrapperKind][]string{
		ExpireFunc:      {"key"},
		ReleaseFunc:     {"key"},
		SafeReleaseFunc: {"key"},
	}
)

// Param names a parameter of a wrapper.
type Param struct {
	// Index is the 0-based position among the parameters (the receiver is
	// not counted), or -1 when the parameter is named.
	Index int
	// Name is the parameter's name, when given by name.
	Name string
}

func (p Param) String() string {
	if p.Index >= 0 {
		return strconv.Itoa(p.Index)
	}
	return p.Name
}

// TTL units a declaration may give.
const (
	UnitDuration = "duration"
	UnitSeconds  = "seconds"
	UnitMillis   = "millis"
)

// Wrapper is one declared wrapper function.
type Wrapper struct {
	Kind WrapperKind
	// Func is the qualified name as declared: "pkg/path.Func",
	// "(*pkg/path.Type).Method" or "(pkg/path.Type).Method".
	Func string
	// Key, Value and TTL are the parameters that carry them; nil when not
	// declared.
	Key, Value, TTL *Param
	// NoTTL: the acquire sets no TTL (ttl=none).
	NoTTL bool
	// Unit is UnitDuration, UnitSeconds, UnitMillis, or "" for the unit
	// the TTL parameter's type implies.
	Unit string
	// Spec is the declaration as written, for messages.
	Spec string
}

// MatchName is the form of w.Func that go/types' (*types.Func).FullName
// produces once its receiver's '*' is dropped: "(pkg/path.Type).Method" or
// "pkg/path.Func". A type has one method of a name, so the receiver's form
// does not matter.
func (w *Wrapper) MatchName() string { return strings.Replace(w.Func, "(*", "(", 1) }

// ShortName is the function's or method's own name ("TryLock").
func (w *Wrapper) ShortName() string { return w.Func[strings.LastIndex(w.Func, ".")+1:] }

// ParseWrappers parses the declarations of kind in value: one or more,
// separated by ';'. Empty declarations are ignored.
func ParseWrappers(kind WrapperKind, value string) ([]Wrapper, error) {
	if _, ok := wrapperOptions[kind]; !ok {
		return nil, fmt.Errorf("unknown wrapper kind %d", kind)
	}
	var out []Wrapper
	for _, spec := range strings.Split(value, ";") {
		spec = strings.TrimSpace(spec)
		if spec == "" {
			continue
		}
		w, err := parseWrapper(kind, spec)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

func parseWrapper(kind WrapperKind, spec string) (Wrapper, error) {
	w := Wrapper{Kind: kind, Spec: spec}
	fail := func(format string, args ...any) (Wrapper, error) {
		return Wrapper{}, fmt.Errorf("%s %q: %s", kind.Setting(), spec, fmt.Sprintf(format, args...))
	}
	name, opts, hasOpts := strings.Cut(spec, ":")
	w.Func = strings.TrimSpace(name)
	if err := checkFuncName(w.Func); err != nil {
		return fail("%v", err)
	}
	if hasOpts && strings.TrimSpace(opts) == "" {
		return fail("nothing after ':'; give options such as key=1 or leave the ':' out")
	}
	seen := map[string]bool{}
	if hasOpts {
		for _, opt := range strings.Split(opts, ",") {
			opt = strings.TrimSpace(opt)
			k, v, ok := strings.Cut(opt, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !ok || k == "" || v == "" {
				return fail("option %q: want NAME=VALUE, as in key=1 or ttl=ttl", opt)
			}
			valid := wrapperOptions[kind]
			if !contains(valid, k) {
				return fail("unknown option %q (%s take %s)", k, kind.Setting(), strings.Join(valid, ", "))
			}
			if seen[k] {
				return fail("option %q given twice", k)
			}
			seen[k] = true
			switch k {
			case "unit":
				switch v {
				case UnitDuration, UnitSeconds, UnitMillis:
					w.Unit = v
				default:
					return fail("unit=%s: want duration, seconds or millis", v)
				}
				continue
			case "ttl":
				if v == "none" {
					if kind != AcquireFunc {
						return fail("ttl=none is for acquire-funcs only")
					}
					w.NoTTL = true
					continue
				}
			}
			p, err := parseParam(v)
			if err != nil {
				return fail("%s=%s: %v", k, v, err)
			}
			switch k {
			case "key":
				w.Key = &p
			case "value":
				w.Value = &p
			case "ttl":
				w.TTL = &p
			}
		}
	}
	for _, r := range wrapperRequired[kind] {
		if !seen[r] {
			return fail("option %s is required, as in %s:%s=1", r, w.Func, r)
		}
	}
	if w.Unit != "" && w.TTL == nil {
		return fail("unit=%s without a ttl parameter", w.Unit)
	}
	return w, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func parseParam(v string) (Param, error) {
	if v[0] >= '0' && v[0] <= '9' {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return Param{}, fmt.Errorf("want a parameter position (0, 1, …) or name")
		}
		return Param{Index: n}, nil
	}
	if !token.IsIdentifier(v) || v == "_" {
		return Param{}, fmt.Errorf("want a parameter position (0, 1, …) or name")
	}
	return Param{Index: -1, Name: v}, nil
}

// checkFuncName checks the forms pkg/path.Func, (pkg/path.Type).Method and
// (*pkg/path.Type).Method.
func checkFuncName(s string) error {
	bad := fmt.Errorf("want a function as pkg/path.Func or a method as (*pkg/path.Type).Method")
	if s == "" {
		return bad
	}
	qualified := func(q string) bool {
		i := strings.LastIndex(q, ".")
		if i <= 0 || !token.IsIdentifier(q[i+1:]) {
			return false
		}
		return importPath(q[:i])
	}
	if strings.HasPrefix(s, "(") {
		i := strings.Index(s, ")")
		if i < 0 || !strings.HasPrefix(s[i:], ").") || !token.IsIdentifier(s[i+2:]) {
			return bad
		}
		recv := strings.TrimPrefix(s[1:i], "*")
		if !qualified(recv) {
			return bad
		}
		return nil
	}
	if !qualified(s) {
		return bad
	}
	return nil
}

// importPath accepts the characters Go allows in import paths, in
// non-empty elements separated by '/'.
func importPath(p string) bool {
	for _, elem := range strings.Split(p, "/") {
		if elem == "" {
			return false
		}
		for _, r := range elem {
			switch {
			case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			case strings.ContainsRune("-._~+", r):
			default:
				return false
			}
		}
	}
	return true
}

// validateWrappers checks declarations built by a Go caller as well as
// parsed ones, and that no function is declared twice.
func (c *Config) validateWrappers() error {
	seen := map[string]string{}
	for i := range c.Wrappers {
		w := &c.Wrappers[i]
		spec := w.Spec
		if spec == "" {
			spec = w.Func
		}
		if _, ok := wrapperOptions[w.Kind]; !ok {
			return fmt.Errorf("wrapper %q: unknown kind %d", spec, w.Kind)
		}
		if err := checkFuncName(w.Func); err != nil {
			return fmt.Errorf("%s %q: %v", w.Kind.Setting(), spec, err)
		}
		if w.Key == nil && w.Kind != AcquireFunc {
			return fmt.Errorf("%s %q: option key is required", w.Kind.Setting(), spec)
		}
		if w.NoTTL && (w.TTL != nil || w.Kind != AcquireFunc) {
			return fmt.Errorf("%s %q: ttl=none is for acquire-funcs without a ttl parameter", w.Kind.Setting(), spec)
		}
		switch w.Unit {
		case "", UnitDuration, UnitSeconds, UnitMillis:
		default:
			return fmt.Errorf("%s %q: unit=%s: want duration, seconds or millis", w.Kind.Setting(), spec, w.Unit)
		}
		if prev, ok := seen[w.MatchName()]; ok {
			return fmt.Errorf("%s is declared twice (%s and %s)", w.Func, prev, w.Kind.Setting())
		}
		seen[w.MatchName()] = w.Kind.Setting()
	}
	return nil
}
