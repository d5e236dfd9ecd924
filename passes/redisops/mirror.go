package redisops

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// Clients reached through the project's own layers. Services hide Redis
// behind an interface or a wrapper type of their own and pass that
// around, so the lock code never names a client type:
//
//	type Store interface {
//		SetNX(ctx context.Context, key string, v any, ttl time.Duration) *redis.BoolCmd
//		Del(ctx context.Context, keys ...string) *redis.IntCmd
//	}
//	type Backend interface {
//		SetNX(ctx context.Context, key, value string, ttl time.Duration) (bool, error)
//		Del(ctx context.Context, key string) error
//	}
//
// A method call is a Redis command when its receiver's type (an interface
// or a named type, declared in any package but a client's) mirrors a
// client: at least two of its methods (minMirrored) are named as Redis
// commands, in any case (SetNX, SetNx, Set, SetEx, GetSet, Get, Del,
// Unlink, Expire, PExpire, Eval, EvalSha, Incr: mirrorCmds), take the
// command's arguments in the client's order after an optional
// context.Context (a key of string type, keys as ...string or []string,
// a value of any type, a TTL as a time.Duration or an integer), and
// return either one command value (a type with Err() error and
// Result() (T, error), go-redis' or the project's own) or plain values
// whose last is an error ((bool, error), error, (string, error),
// (int64, error), …). A method with another shape does not count, and
// is not an op: an in-memory cache's Get(k) (string, bool) is no
// client, and neither is a type with one Del. The decision is made
// once per type and run (mirrorRun), on its method set, not per call.
//
// The op is the command's, with the key, value and TTL taken from the
// arguments; a TTL counts seconds when it is an integer (milliseconds
// for PExpire, and for a parameter named in milliseconds, ttlMs). The
// acquire's outcome is read from the results as for a go-redis SetNX
// (a command value read by Err, Val or Result) or as for a declared
// wrapper ((bool, error)); neither makes the call a lock by itself
// (Outcome.IsLock is false): the checks' lock evidence decides, so a
// cache interface of Get, Set and Del is a set of ops and no finding.
// The type's Pipeline, TxPipeline, Pipelined and TxPipelined open a
// batch when they hand out one (a go-redis Pipeliner, or a type with
// Exec that mirrors a client), and its Exec and Discard send or drop it.
//
// A concrete type's methods are no mirror in the type's own package:
// there its bodies are read by the inferred wrappers (summary.go), which
// know what each does (the key prefix it adds, the TTL it fixes), and
// its tests drive the wrapper rather than lock with it. In other
// packages a method with a summary of its own is matched by that summary
// first (builder.match). Forwarders of redigo's generic Do and Send are
// in mirror_forward.go.

// minMirrored is how many command methods make a type a client's mirror.
const minMirrored = 2

// mirrorCmd is a command a mirror's method can be named after: its kind
// and the parameter layouts it takes after the context, one letter per
// parameter: k a key, K keys (...string or []string), v a value, t a
// TTL, s a script or its SHA, a the script's arguments (...any).
type mirrorCmd struct {
	kind    Kind
	layouts []string
	unit    Unit // the unit of an integer TTL
}

var mirrorCmds = map[string]mirrorCmd{
	"SETNX":   {kind: Acquire, layouts: []string{"kvt", "kv"}, unit: Seconds},
	"SET":     {kind: Write, layouts: []string{"kvt", "kv"}, unit: Seconds},
	"SETEX":   {kind: Write, layouts: []string{"kvt"}, unit: Seconds},
	"GETSET":  {kind: GetSet, layouts: []string{"kv"}},
	"GET":     {kind: Get, layouts: []string{"k"}},
	"DEL":     {kind: Delete, layouts: []string{"K", "k"}},
	"UNLINK":  {kind: Delete, layouts: []string{"K", "k"}},
	"EXPIRE":  {kind: Expire, layouts: []string{"kt"}, unit: Seconds},
	"PEXPIRE": {kind: Expire, layouts: []string{"kt"}, unit: Millis},
	"EVAL":    {kind: Script, layouts: []string{"sKa"}},
	"EVALSHA": {kind: Script, layouts: []string{"sKa"}},
	"INCR":    {kind: Acquire, layouts: []string{"k"}},
}

// mirrorNames are the method names a mirror's call can have: the
// commands' spellings, batch openers and flushes. A method named
// otherwise is not looked at, and its receiver's type not classified.
var mirrorNames = map[string]bool{}

func init() {
	ns := []string{
		"SetNX", "SetNx", "Setnx", "SETNX", "Set", "SET", "SetEx", "SetEX", "Setex", "SETEX",
		"GetSet", "Getset", "GETSET", "Get", "GET", "Del", "DEL", "Unlink", "UNLINK",
		"Expire", "EXPIRE", "PExpire", "Pexpire", "PEXPIRE", "Eval", "EVAL", "EvalSha", "Evalsha", "EVALSHA",
		"Incr", "INCR",
	}
	ns = append(ns, mirrorOpeners...)
	ns = append(ns, mirrorFlushes...)
	for _, n := range ns {
		mirrorNames[n] = true
	}
	registerNames(ns)
}

var (
	mirrorOpeners = []string{"TxPipelined", "Pipelined", "TxPipeline", "Pipeline"}
	mirrorFlushes = []string{"Exec", "ExecContext", "Discard"}
)

// resultShape is how a mirror's method returns its reply.
type resultShape uint8

const (
	// shapeCmd: one command value, read by Err, Val and Result.
	shapeCmd resultShape = iota + 1
	// shapePlain: plain values, the last an error.
	shapePlain
)

// mirrorMethod is one command method of a mirror type.
type mirrorMethod struct {
	cmd    string // the command, upper case
	ctx    bool   // takes a context.Context first
	layout string // its parameters after the context (mirrorCmd.layouts)
	unit   Unit   // the TTL's unit
	shape  resultShape
	value  types.Type // the reply's value: Result's first result, or the plain result before the error (nil: none)
	family string     // the go-redis family of a go-redis command value, or ""
	fn     *types.Func
}

// mirrorType is a type whose method set mirrors a client's, the adapter
// of calls of its command methods.
type mirrorType struct {
	key     types.Type               // the type (mirrorKey)
	methods map[string]*mirrorMethod // by method name
	batch   bool                     // it has Exec: a pipeline's mirror
}

// The capabilities this adapter has (capabilities.go).
var (
	_ adapter     = (*mirrorType)(nil)
	_ scopeOpener = (*mirrorType)(nil)
	_ flusher     = (*mirrorType)(nil)
	_ ttlSetter   = (*mirrorType)(nil)
	_ outcomer    = (*mirrorType)(nil)
	_ nilReplier  = (*mirrorType)(nil)
	_ readBother  = (*mirrorType)(nil)
	_ replier     = (*mirrorType)(nil)
	_ releaser    = (*mirrorType)(nil)
)

// mirrorOf returns the mirror adapter for a call of fn on recv, or nil:
// fn is a method of a type that mirrors a client (not a client's own
// type), and one of its command methods, batch openers or flushes.
func (b *builder) mirrorOf(fn *types.Func, recv ast.Expr) adapter {
	name := fn.Name()
	if recv == nil || !mirrorNames[name] || fn.Signature().Recv() == nil || ClientPackage(fn.Pkg().Path()) {
		return nil
	}
	if fn.Pkg() == b.pass.Pkg && !types.IsInterface(fn.Signature().Recv().Type()) {
		// The wrapper's own package: its bodies are read (summary.go),
		// and its tests drive the wrapper, they do not lock with it.
		return nil
	}
	key := mirrorKey(b.pass.TypesInfo.TypeOf(recv))
	if key == nil {
		return nil
	}
	if b.mirror == nil {
		b.mirror = map[types.Type]*mirrorType{}
	}
	t, done := b.mirror[key]
	if !done {
		t = classifyMirror(key) // nil: decided, no mirror
		b.mirror[key] = t
	}
	if t == nil {
		return nil
	}
	if t.methods[name] != nil || t.flushes(fn) {
		return t
	}
	if _, _, _, ok := t.opensScope(fn); ok {
		return t
	}
	return nil
}

// mirrorKey is the type a receiver of type t is classified by: its
// named type (pointers removed, the origin of an instance), or an
// unnamed interface itself. Nil for anything else, and for a client's
// own types.
func mirrorKey(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	switch n := t.(type) {
	case *types.Named:
		if n.Obj().Pkg() == nil || ClientPackage(n.Obj().Pkg().Path()) {
			return nil
		}
		return n.Origin()
	case *types.Interface:
		return n
	}
	return nil
}

// classifyMirror decides whether the type t mirrors a client: nil when
// fewer than minMirrored of its methods are command methods.
func classifyMirror(t types.Type) *mirrorType {
	mt := t
	if !types.IsInterface(t) {
		mt = types.NewPointer(t)
	}
	ms := types.NewMethodSet(mt)
	m := &mirrorType{key: t, methods: map[string]*mirrorMethod{}}
	for i := range ms.Len() {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok {
			continue
		}
		if fn.Name() == "Exec" {
			m.batch = true
		}
		if mm := mirrorMethodOf(fn); mm != nil {
			m.methods[fn.Name()] = mm
		}
	}
	if len(m.methods) < minMirrored {
		return nil
	}
	return m
}

// mirrorMethodOf describes fn when it is a command method: named as a
// command, with one of its parameter layouts and a reply shaped as a
// client's.
func mirrorMethodOf(fn *types.Func) *mirrorMethod {
	cmd := strings.ToUpper(fn.Name())
	c, ok := mirrorCmds[cmd]
	if !ok {
		return nil
	}
	sig := fn.Signature()
	mm := &mirrorMethod{cmd: cmd, ctx: takesContext(fn), unit: c.unit, fn: fn}
	var params []*types.Var
	for p := range sig.Params().Variables() {
		params = append(params, p)
	}
	if mm.ctx {
		params = params[1:]
	}
	for _, l := range c.layouts {
		if layoutFits(l, params, sig.Variadic()) {
			mm.layout = l
			break
		}
	}
	if mm.layout == "" || !mm.reply(sig.Results()) {
		return nil
	}
	if i := strings.IndexByte(mm.layout, 't'); i >= 0 {
		p := params[i]
		if isDuration(p.Type()) {
			mm.unit = Duration
		} else if millisName(p.Name()) {
			mm.unit = Millis
		}
	}
	switch cmd {
	case "SETNX":
		if !isBool(mm.value) {
			return nil
		}
	case "INCR":
		if !isInteger(mm.value) {
			return nil
		}
	}
	return mm
}

// layoutFits reports whether params (after the context) are laid out as
// l says.
func layoutFits(l string, params []*types.Var, variadic bool) bool {
	if len(params) != len(l) {
		return false
	}
	for i, p := range params {
		t := p.Type()
		last := i == len(params)-1
		switch l[i] {
		case 'k', 's':
			if !isString(t) || last && variadic {
				return false
			}
		case 'K':
			s, ok := t.(*types.Slice)
			if !ok || !isString(s.Elem()) {
				return false
			}
		case 'v':
			if isContext(t) || last && variadic {
				return false
			}
		case 't':
			if !isDuration(t) && !isInteger(t) || last && variadic {
				return false
			}
		case 'a':
			if !last || !variadic {
				return false
			}
		}
	}
	return true
}

// reply reads the method's results: one command value (a type with
// Err() error and Result() (T, error)), or plain values whose last is an
// error. It reports whether they are either.
func (mm *mirrorMethod) reply(rs *types.Tuple) bool {
	n := rs.Len()
	if n == 0 {
		return false
	}
	if isError(rs.At(n - 1).Type()) {
		mm.shape = shapePlain
		if n == 2 {
			mm.value = rs.At(0).Type()
		}
		return n <= 2
	}
	if n != 1 {
		return false
	}
	t := rs.At(0).Type()
	res := methodOf(t, nil, "Result")
	errm := methodOf(t, nil, "Err")
	if res == nil || errm == nil {
		return false
	}
	if r := errm.Signature().Results(); errm.Signature().Params().Len() != 0 || r.Len() != 1 || !isError(r.At(0).Type()) {
		return false
	}
	r := res.Signature().Results()
	if res.Signature().Params().Len() != 0 || r.Len() != 2 || !isError(r.At(1).Type()) {
		return false
	}
	mm.shape, mm.value = shapeCmd, r.At(0).Type()
	if n, ok := derefNamed(t); ok && n.Obj().Pkg() != nil {
		mm.family = goRedisPaths[n.Obj().Pkg().Path()]
	}
	return true
}

// derefNamed is t, or what t points to, as a named type.
func derefNamed(t types.Type) (*types.Named, bool) {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	return n, ok
}

// millisName reports whether a TTL parameter's name says it counts
// milliseconds (ms, ttlMs, expireMillis, …).
func millisName(name string) bool {
	l := strings.ToLower(name)
	return l == "ms" || strings.HasSuffix(name, "Ms") || strings.HasSuffix(name, "MS") || strings.HasSuffix(l, "_ms") || strings.Contains(l, "milli")
}

func isBasic(t types.Type, info types.BasicInfo) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&info != 0
}

func isString(t types.Type) bool  { return isBasic(t, types.IsString) }
func isBool(t types.Type) bool    { return isBasic(t, types.IsBoolean) }
func isInteger(t types.Type) bool { return !isDuration(t) && isBasic(t, types.IsInteger) }
func isError(t types.Type) bool   { return types.Identical(t, types.Universe.Lookup("error").Type()) }

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

func (t *mirrorType) family(fn *types.Func) string {
	if t.methods[fn.Name()] != nil {
		return "mirror"
	}
	return ""
}

// opensScope: Pipeline and TxPipeline return a batch; Pipelined and
// TxPipelined hand one to their callback. The batch is a go-redis
// Pipeliner or a type with Exec that mirrors a client.
func (t *mirrorType) opensScope(fn *types.Func) (ScopeKind, bool, int, bool) {
	sig := fn.Signature()
	kind := Pipeline
	if strings.HasPrefix(fn.Name(), "Tx") {
		kind = Tx
	}
	switch fn.Name() {
	case "TxPipeline", "Pipeline":
		if sig.Results().Len() == 1 && mirrorBatch(sig.Results().At(0).Type()) {
			return kind, false, -1, true
		}
	case "TxPipelined", "Pipelined":
		i := 0
		if takesContext(fn) {
			i = 1
		}
		if sig.Params().Len() != i+1 {
			break
		}
		cb, ok := sig.Params().At(i).Type().Underlying().(*types.Signature)
		if ok && cb.Params().Len() == 1 && mirrorBatch(cb.Params().At(0).Type()) {
			return kind, false, i, true
		}
	}
	return 0, false, 0, false
}

// mirrorBatch reports whether t is a batch: a go-redis Pipeliner, or a
// type with Exec whose method set mirrors a client (its own methods or
// a go-redis interface it embeds).
func mirrorBatch(t types.Type) bool {
	if (goRedis{}).batchType(t) {
		return true
	}
	key := mirrorKey(t)
	if key == nil {
		return false
	}
	if m := classifyMirror(key); m != nil {
		return m.batch
	}
	return false
}

// flushes: Exec sends the batch, Discard drops it.
func (t *mirrorType) flushes(fn *types.Func) bool {
	switch fn.Name() {
	case "Exec", "ExecContext", "Discard":
		return t.batch
	}
	return false
}

func (t *mirrorType) op(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func) *Op {
	mm := t.methods[fn.Name()]
	if mm == nil {
		return nil
	}
	info := pass.TypesInfo
	args := call.Args
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodExpr {
			return nil // (T).M(recv, …): rare; the receiver is no call's
		}
	}
	if mm.ctx {
		if len(args) == 0 {
			return nil
		}
		args = args[1:]
	}
	variadicLast := fn.Signature().Variadic()
	if len(args) < len(mm.layout)-1 || !variadicLast && len(args) != len(mm.layout) {
		return nil
	}
	client := mm.family
	if client == "" {
		client = "mirror"
	}
	op := &Op{Call: call, Client: client, Method: fn.Name(), Kind: mirrorCmds[mm.cmd].kind}
	for i, r := range mm.layout {
		switch r {
		case 'k':
			op.Keys = []ast.Expr{args[i]}
		case 'K':
			if variadicLast && i == len(mm.layout)-1 {
				op.setVariadicKeys(call, args[i:])
			} else {
				op.setSliceKeys(args[i])
			}
		case 'v':
			op.Value = args[i]
		case 't':
			op.TTL, op.TTLUnit = args[i], mm.unit
		case 's':
			op.Script = args[i]
			if mm.cmd == "EVAL" {
				op.setScriptSrc(info, args[i])
			}
		case 'a':
			op.Args = variadic(call, args[i:])
		}
	}
	switch mm.cmd {
	case "SETNX":
		if v := constval.Int(info, op.TTL); op.TTL == nil || v != nil && *v <= 0 {
			op.NoTTL = true
		}
	case "GETSET":
		op.NoTTL = true
	case "SET", "SETEX":
		op.Overwrites = true
	case "INCR":
		return t.incr(pass, op, call)
	}
	return op
}

// withTTL: the acquire's TTL argument takes the Expire's, in the same
// unit.
func (t *mirrorType) withTTL(_ *analysis.Pass, o *Op, ttl string, unit Unit) ([]analysis.TextEdit, bool) {
	if o.Kind != Acquire || o.TTL == nil || unit != o.TTLUnit {
		return nil, false
	}
	return []analysis.TextEdit{fixes.Replace(o.TTL, ttl)}, true
}

// outcome: a SetNX's reply says busy as false, read from a command value
// as go-redis' is (Err, Val, Result) or from (bool, error) as a declared
// wrapper's. Not a lock by itself (IsLock false).
func (t *mirrorType) outcome(info *types.Info, o *Op) (Outcome, bool) {
	mm := t.methods[o.Method]
	if mm == nil || mm.cmd != "SETNX" && mm.cmd != "INCR" {
		return Outcome{}, false
	}
	busy := BusyFalse
	if mm.cmd == "INCR" {
		busy = BusyCount
	}
	if mm.shape == shapeCmd {
		return readReply(info, Outcome{Busy: busy}, o, goRedisReads, func(string) bool { return true }), true
	}
	sig, ok := info.TypeOf(o.Call.Fun).(*types.Signature)
	if !ok || sig.Results().Len() != 2 {
		return Outcome{}, false
	}
	return callOutcome(info, o, busy, 0, 1, 2), true
}

// busyErr: a go-redis command value's nil reply is that client's
// redis.Nil.
func (t *mirrorType) busyErr(info *types.Info, o *Op, e ast.Expr) bool {
	if mm := t.methods[o.Method]; mm == nil || mm.family == "" {
		return false
	}
	return goRedis{}.busyErr(info, o, e)
}

// absentRead: a GET returning a go-redis command value says a missing
// key as go-redis does (redis.Nil). Plain values do not say it: an empty
// string may be a missing key, or a stored one, and an error may be a
// failure or the project's own "not found".
func (t *mirrorType) absentRead(info *types.Info, o *Op) (absentRead, bool) {
	mm := t.methods[o.Method]
	if mm == nil || mm.cmd != "GET" || mm.shape != shapeCmd || mm.family == "" || o.Kind != Get {
		return absentRead{}, false
	}
	return goRedisAbsentRead(info, o)
}

// readBoth: as go-redis', for a command value with Err and Result.
func (t *mirrorType) readBoth(out Outcome, name string) ([]analysis.TextEdit, bool) {
	return readBothVia(out, name, "Err", "Result")
}

// reply: a command value's, read as go-redis' (Val, Result); plain
// values' first, assigned with the error (v, err := s.Get(ctx, k)).
func (t *mirrorType) reply(info *types.Info, o *Op) (ast.Expr, *types.Var) {
	mm := t.methods[o.Method]
	switch {
	case mm == nil:
		return nil, nil
	case mm.shape == shapeCmd:
		return goRedis{}.reply(info, o)
	case mm.value != nil:
		return nil, pairFirst(info, o.Cursor.Parent().Node())
	}
	return nil, nil
}

// incr makes the op of Incr(ctx, key) an acquire with no TTL when the
// call takes a lock (incr.go), and a Counter otherwise.
func (t *mirrorType) incr(pass *analysis.Pass, op *Op, call *ast.CallExpr) *Op {
	if len(op.Keys) != 1 {
		return nil
	}
	cur, ok := cursorAt(pass, call)
	if !ok {
		op.Kind = Counter
		return op
	}
	if use := incrOf(pass.TypesInfo, cur, op.Keys[0], t.incrReader(op.Method)); use != incrLocked {
		// A counter's evidence, as a client's INCR (incr.go).
		op.Kind, op.incrVerdict = Counter, use == incrVerdict
		return op
	}
	op.NoTTL = true
	return op
}

// incrReader reads the reply of the Incr method name as go-redis' when
// it is a command value (.Val(), .Result()) and as a pair when it is
// (int64, error); the type's own Del and Unlink are its deletes.
func (t *mirrorType) incrReader(name string) incrReader {
	cmdValue := t.methods[name].shape == shapeCmd
	return incrReader{
		reply: func(_ *types.Info, cur inspector.Cursor) (inspector.Cursor, bool, bool) {
			if !cmdValue {
				return cur, true, true
			}
			return valOrResult(cur)
		},
		deletes: func(info *types.Info, _ *ast.BlockStmt, call *ast.CallExpr) []ast.Expr {
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || call.Ellipsis.IsValid() || mirrorKey(info.TypeOf(sel.X)) != t.key {
				return nil
			}
			mm := t.methods[sel.Sel.Name]
			if mm == nil || mm.cmd != "DEL" && mm.cmd != "UNLINK" {
				return nil
			}
			args := call.Args
			if mm.ctx && len(args) > 0 {
				args = args[1:]
			}
			return args
		},
	}
}
