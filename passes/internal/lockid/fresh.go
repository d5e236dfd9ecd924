package lockid

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/redisops"
)

// FreshToken reports whether the acquire a writes, with a TTL, a value
// drawn anew for each acquisition from a random (or unique-ID) source:
// a UUID, crypto/rand or math/rand output, an xid, a ULID, a KSUID, …,
// alone, encoded or formatted with anything else. Only an owner needs a
// value nobody else can write: a key claimed with NX, a TTL and such a
// token is a lease its caller holds, a lock whatever the code calls it.
// A dedupe or idempotency key holds a constant, the request's own ID or
// a timestamp; a rate limit counts; a record written for good has no
// TTL: none of these is a fresh token.
//
// The value is followed through local variables (every assignment of
// one must be fresh, its address never taken), fields (every write of
// the field in the package must be fresh) and the package's own
// functions (every return must be fresh); a parameter or a package-level
// variable (one value for the whole process) is not.
func (l *Locks) FreshToken(a *redisops.Op) bool {
	if a.Kind != redisops.Acquire || a.Value == nil || a.NoTTL || a.TTL == nil || a.Func == nil || a.Key() == nil {
		return false
	}
	if !(&freshness{l: l, seen: map[types.Object]bool{}}).of(a.Value, 0) {
		return false
	}
	return l.onlyOwnerUses(a) && !l.valueRead(a)
}

// onlyOwnerUses reports whether the acquire's value, when it is a local
// variable or a field, is used only where a lock's token is: as an
// argument of a Redis operation (the acquire, an owner-checked release),
// in a comparison (an owner check), or stored in a field (a lock value
// that keeps its token). A random value handed to anything else, or
// returned, may be a secret (a one-time code sent by SMS, a session ID
// given to the client) stored if absent: not a lock's token.
func (l *Locks) onlyOwnerUses(a *redisops.Op) bool {
	info := l.pass.TypesInfo
	var match func(ast.Expr) bool
	var in ast.Node
	switch v := ast.Unparen(a.Value).(type) {
	case *ast.Ident:
		obj := info.Uses[v]
		if obj == nil {
			return false
		}
		in = l.declAt(a.Call.Pos())
		match = func(e ast.Expr) bool {
			id, ok := e.(*ast.Ident)
			return ok && info.Uses[id] == obj
		}
	case *ast.SelectorExpr:
		fld := astx.FieldOf(info, v)
		if fld == nil {
			return true // a call: used nowhere else
		}
		match = func(e ast.Expr) bool {
			sel, ok := e.(*ast.SelectorExpr)
			return ok && astx.FieldOf(info, sel) == fld
		}
	default:
		return true // a call or an expression: used nowhere else
	}
	ok := true
	visit := func(root ast.Node) {
		var stack []ast.Node
		ast.Inspect(root, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			if !ok {
				return false
			}
			e, isExpr := n.(ast.Expr)
			if isExpr && match(e) && !l.ownerUse(e, stack) {
				ok = false
			}
			stack = append(stack, n)
			return true
		})
	}
	if in != nil {
		visit(in)
	} else {
		for _, f := range l.pass.Files {
			visit(f)
		}
	}
	return ok
}

// ownerUse reports whether e, whose enclosing nodes are stack (innermost
// last), is used as a lock's token is (onlyOwnerUses).
func (l *Locks) ownerUse(e ast.Expr, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.BinaryExpr:
		if p.Op == token.EQL || p.Op == token.NEQ {
			return true
		}
	case *ast.AssignStmt:
		for i, lhs := range p.Lhs {
			if lhs == e {
				return true // written, not read
			}
			if i < len(p.Rhs) && p.Rhs[i] == e && len(p.Lhs) == len(p.Rhs) && astx.FieldOf(l.pass.TypesInfo, lhs) != nil {
				return true // kept in a field
			}
		}
	case *ast.KeyValueExpr:
		if p.Value == e {
			if len(stack) > 1 {
				if _, ok := stack[len(stack)-2].(*ast.CompositeLit); ok {
					return true // a struct literal's field
				}
			}
		}
	case *ast.SelectorExpr:
		if p.Sel == e {
			return false // the selector's name, not the value
		}
	}
	// An argument of a Redis operation, at any depth ([]any{token}).
	for i := len(stack) - 1; i >= 0; i-- {
		if call, ok := stack[i].(*ast.CallExpr); ok && l.res.Op(call) != nil {
			return true
		}
	}
	return false
}

// valueRead reports whether the package reads or replaces the value of
// a's key: a GET, GETSET or plain SET of the same key in a's function, or
// of a key of the same shape in another. A random value stored if absent
// and read back is a generated ID (an install ID, a nonce), not a claim.
func (l *Locks) valueRead(a *redisops.Op) bool {
	reads := func(op *redisops.Op) bool {
		return op != a && (op.Kind == redisops.Get || op.Kind == redisops.GetSet || op.Kind == redisops.Write)
	}
	form := a.KeyForm()
	for _, op := range a.Func.OpsOn(form) {
		if reads(op) && keyid.Same(op.KeyForm(), form) {
			return true
		}
	}
	x := l.index()
	for _, k := range dedupe(l.shapeKeys(a, a.Key())) {
		for _, i := range x.opsByShape[k] {
			op := x.ops[i]
			if reads(op) && op.Func != a.Func && op.Key() != nil && keyid.SameShape(op.KeyForm(), form) {
				return true
			}
		}
	}
	return false
}

type freshness struct {
	l    *Locks
	seen map[types.Object]bool // variables and functions on the path being followed
}

const freshDepth = 6

func (f *freshness) of(e ast.Expr, depth int) bool {
	if e == nil || depth > freshDepth {
		return false
	}
	info := f.l.pass.TypesInfo
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && (tv.Value != nil || tv.IsNil()) {
		return false
	}
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
			return false // a package-level variable: one value per process
		}
		return f.local(v, depth)
	case *ast.SelectorExpr:
		if fld := astx.FieldOf(info, e); fld != nil {
			return f.field(fld, depth)
		}
	case *ast.BinaryExpr:
		return e.Op == token.ADD && (f.of(e.X, depth+1) || f.of(e.Y, depth+1))
	case *ast.CallExpr:
		return f.call(e, 0, depth)
	}
	return false
}

// call reports whether result i of call is fresh.
func (f *freshness) call(call *ast.CallExpr, i, depth int) bool {
	info := f.l.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return len(call.Args) == 1 && f.of(call.Args[0], depth+1) // string(b), ID(x)
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	sig := fn.Type().(*types.Signature)
	path := modulePath(fn.Pkg().Path())
	if i == 0 && freshSource(path, fn, sig) {
		return true
	}
	switch {
	case sig.Recv() != nil:
		// uuid.New().String(), ulid.Make().String(), n.Text(36): a
		// method with no arguments giving a fresh value's text.
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if ok && len(call.Args) == 0 && i == 0 && textResult(sig) {
			return f.of(sel.X, depth+1)
		}
		if ok && i == 0 && encoder(path, fn.Name()) { // base64.RawURLEncoding.EncodeToString(b)
			return len(call.Args) == 1 && f.of(call.Args[0], depth+1)
		}
		return false
	case i == 0 && (encoder(path, fn.Name()) || isSource(path) && fn.Name() == "Must"):
		// hex.EncodeToString(b), fmt.Sprintf("%s-%s", host, id),
		// strconv.FormatInt(rand.Int63(), 36), uuid.Must(uuid.NewRandom())
		if call.Ellipsis.IsValid() {
			return false
		}
		for _, arg := range call.Args {
			if f.of(arg, depth+1) {
				return true
			}
		}
		return false
	case fn.Pkg() == f.l.pass.Pkg:
		return f.helper(fn, i, depth)
	}
	return false
}

// freshSourcePkgs are the packages whose constructors return a new random
// or unique value at each call (the path without its major version), and
// those constructors ("" for every function whose first result is not an
// error: math/rand's numbers).
var freshSourcePkgs = map[string][]string{
	"crypto/rand":                    {"Text", "Int", "Prime"},
	"math/rand":                      {""},
	"github.com/google/uuid":         {"New", "NewString", "NewRandom", "NewRandomFromReader", "NewUUID", "NewV6", "NewV7", "NewV7FromReader"},
	"github.com/gofrs/uuid":          {"NewV1", "NewV4", "NewV6", "NewV7"},
	"github.com/satori/go.uuid":      {"NewV1", "NewV4"},
	"github.com/pborman/uuid":        {"New", "NewRandom", "NewUUID"},
	"github.com/hashicorp/go-uuid":   {"GenerateUUID", "GenerateRandomBytes"},
	"github.com/rs/xid":              {"New"},
	"github.com/segmentio/ksuid":     {"New", "NewRandom"},
	"github.com/oklog/ulid":          {"Make", "New", "MustNew"},
	"github.com/lithammer/shortuuid": {"New"},
	"github.com/teris-io/shortid":    {"Generate", "MustGenerate"},
	"github.com/matoous/go-nanoid":   {"New", "Generate", "MustGenerate"},
	"github.com/aidarkhanov/nanoid":  {"New", "Generate"},
	"github.com/bwmarrin/snowflake":  {"Generate"},
	"github.com/sony/sonyflake":      {"NextID"},
}

func isSource(path string) bool {
	names, ok := freshSourcePkgs[path]
	return ok && len(names) > 0
}

// freshSource reports whether fn is a constructor of a fresh value.
func freshSource(path string, fn *types.Func, sig *types.Signature) bool {
	names := freshSourcePkgs[path]
	if len(names) == 0 || sig.Results().Len() == 0 {
		return false
	}
	if names[0] == "" {
		// math/rand: every number it returns, not its constructors (New,
		// NewSource) or Seed.
		b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
		return ok && b.Info()&types.IsNumeric != 0
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// textResult reports whether sig's first result is a string or a byte
// slice.
func textResult(sig *types.Signature) bool {
	if sig.Results().Len() == 0 {
		return false
	}
	switch t := sig.Results().At(0).Type().Underlying().(type) {
	case *types.Basic:
		return t.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := t.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	}
	return false
}

// encoder reports whether the function name of package path keeps its
// argument's freshness: an encoding or formatting of it.
func encoder(path, name string) bool {
	switch path {
	case "encoding/hex", "encoding/base64", "encoding/base32":
		return name == "EncodeToString"
	case "fmt":
		return name == "Sprint" || name == "Sprintf" || name == "Sprintln"
	case "strconv":
		return name == "Itoa" || name == "FormatInt" || name == "FormatUint"
	case "strings":
		return name == "Join" || name == "ToLower" || name == "ToUpper" || name == "ReplaceAll"
	}
	return false
}

// modulePath is path without a major version suffix (/v2, /v5).
func modulePath(path string) string {
	if i := strings.LastIndex(path, "/v"); i > 0 {
		rest := path[i+2:]
		if rest != "" && strings.Trim(rest, "0123456789") == "" {
			return path[:i]
		}
	}
	return path
}

// local reports whether every value the local variable v is given is
// fresh: its definitions and assignments in the function declaration
// that holds it, with its address never taken. A byte slice filled by
// crypto/rand (rand.Read(b), io.ReadFull(rand.Reader, b)) is fresh.
func (f *freshness) local(v *types.Var, depth int) bool {
	if f.seen[v] {
		return false
	}
	f.seen[v] = true
	defer delete(f.seen, v)
	decl := f.l.declAt(v.Pos())
	if decl == nil {
		return false // a parameter of a literal, a result: not followed
	}
	info := f.l.pass.TypesInfo
	ok, any, filled := true, false, false
	is := func(e ast.Expr) bool {
		id, isID := ast.Unparen(e).(*ast.Ident)
		return isID && info.ObjectOf(id) == v
	}
	ast.Inspect(decl, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.Field:
			for _, name := range n.Names {
				if info.Defs[name] == v {
					ok = false // a parameter or result
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if !is(lhs) {
					continue
				}
				any = true
				switch {
				case n.Tok != token.DEFINE && n.Tok != token.ASSIGN:
					ok = false
				case len(n.Lhs) == len(n.Rhs):
					ok = f.of(n.Rhs[i], depth+1) || isMake(info, n.Rhs[i])
				case len(n.Rhs) == 1:
					call, isCall := ast.Unparen(n.Rhs[0]).(*ast.CallExpr)
					ok = isCall && f.call(call, i, depth+1)
				default:
					ok = false
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] != v {
					continue
				}
				switch {
				case len(n.Values) == len(n.Names):
					any = true
					ok = f.of(n.Values[i], depth+1) || isMake(info, n.Values[i])
				case len(n.Values) == 1:
					any = true
					call, isCall := ast.Unparen(n.Values[0]).(*ast.CallExpr)
					ok = isCall && f.call(call, i, depth+1)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				ok = false
			}
		case *ast.RangeStmt:
			if is(n.Key) || n.Value != nil && is(n.Value) {
				ok = false
			}
		case *ast.IncDecStmt:
			if is(n.X) {
				ok = false
			}
		case *ast.CallExpr:
			if randFill(info, n, is) {
				filled = true
			}
		}
		return ok
	})
	if !ok || !any {
		return false
	}
	if filled {
		return true
	}
	// Every assignment was fresh, but a make([]byte, n) alone is not.
	return !f.onlyMake(decl, v)
}

// onlyMake reports whether some assignment of v in decl is a make: such a
// buffer is fresh only when crypto/rand fills it (local).
func (f *freshness) onlyMake(decl ast.Node, v *types.Var) bool {
	info := f.l.pass.TypesInfo
	found := false
	ast.Inspect(decl, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && info.ObjectOf(id) == v && len(n.Lhs) == len(n.Rhs) && isMake(info, n.Rhs[i]) {
					found = true
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v && len(n.Values) == len(n.Names) && isMake(info, n.Values[i]) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func isMake(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "make"
}

// randFill reports whether call fills the buffer is accepts with
// crypto/rand: rand.Read(b), rand.Reader.Read(b), io.ReadFull(rand.Reader, b).
func randFill(info *types.Info, call *ast.CallExpr, is func(ast.Expr) bool) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	switch {
	case fn.Pkg().Path() == "crypto/rand" && fn.Name() == "Read" && len(call.Args) == 1:
		return is(call.Args[0])
	case fn.Pkg().Path() == "io" && fn.Name() == "ReadFull" && len(call.Args) == 2:
		return isRandReader(info, call.Args[0]) && is(call.Args[1])
	case fn.Name() == "Read" && len(call.Args) == 1:
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && isRandReader(info, sel.X) {
			return is(call.Args[0])
		}
	}
	return false
}

func isRandReader(info *types.Info, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := info.Uses[sel.Sel].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" && v.Name() == "Reader"
}

// field reports whether every write of the field in the package is
// fresh (&Mutex{token: uuid.NewString()}).
func (f *freshness) field(fld *types.Var, depth int) bool {
	if f.seen[fld] {
		return false
	}
	f.seen[fld] = true
	defer delete(f.seen, fld)
	writes := f.l.fieldWrites()[fld]
	if len(writes) == 0 {
		return false
	}
	for _, w := range writes {
		if !f.of(w, depth+1) {
			return false
		}
	}
	return true
}

// helper reports whether result i of the package's function fn is fresh
// on every return (func newToken() string).
func (f *freshness) helper(fn *types.Func, i, depth int) bool {
	if f.seen[fn] {
		return false
	}
	f.seen[fn] = true
	defer delete(f.seen, fn)
	decl := f.l.declAt(fn.Pos())
	if decl == nil || decl.Body == nil || decl.Name.Pos() != fn.Pos() {
		return false
	}
	sig := fn.Type().(*types.Signature)
	n := 0
	ok := true
	ast.Inspect(decl.Body, func(nd ast.Node) bool {
		switch nd := nd.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			n++
			switch {
			case len(nd.Results) == sig.Results().Len():
				ok = ok && f.of(nd.Results[i], depth+1)
			default:
				ok = false // a bare return, or a call's results
			}
		}
		return ok
	})
	return ok && n > 0
}

// declAt is the function declaration of the package that holds pos, or
// nil.
func (l *Locks) declAt(pos token.Pos) *ast.FuncDecl {
	file := l.res.FileIndex(l.pass).At(pos)
	if file == nil {
		return nil
	}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
			return fd
		}
	}
	return nil
}

// fieldWrites are the values written to each field of the package, nil
// for a write whose value cannot be read; built once.
func (l *Locks) fieldWrites() map[*types.Var][]ast.Expr {
	l.fieldsOnce.Do(func() {
		l.fields = map[*types.Var][]ast.Expr{}
		astx.FieldWrites(l.pass.TypesInfo, l.res.Inspector, func(f *types.Var, value ast.Expr, _ ast.Node) {
			l.fields[f] = append(l.fields[f], value)
		})
	})
	return l.fields
}
