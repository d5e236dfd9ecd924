package redisops

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// goRedis knows github.com/redis/go-redis/v9 and its ancestors
// (github.com/go-redis/redis v6, v7, v8 and the v9 pre-releases), and the
// go-redis-shaped adapters rueidiscompat and valkeycompat. Methods are
// matched by the called function's package path and name, so concrete
// clients, structs embedding them and the Cmdable/UniversalClient/
// Pipeliner/Scripter interfaces all match.
//
// All of go-redis is in the goredis*.go files: the ops (here), INCR taken
// as a lock (goredis_incr.go), acquire outcomes (goredis_outcome.go),
// replies and owner-checked releases (goredis_release.go) and renewals
// (goredis_renew.go).
type goRedis struct{}

func init() { register(goRedis{}, goRedisNames()) }

var goRedisPaths = map[string]string{
	"github.com/redis/go-redis/v9":                "go-redis/v9",
	"github.com/go-redis/redis/v9":                "go-redis/v9",
	"github.com/go-redis/redis/v8":                "go-redis/v8",
	"github.com/go-redis/redis/v7":                "go-redis/v7",
	"github.com/go-redis/redis":                   "go-redis/v6",
	"github.com/redis/rueidis/rueidiscompat":      "rueidiscompat",
	"github.com/valkey-io/valkey-go/valkeycompat": "valkeycompat",
}

// The capabilities this adapter has (capabilities.go).
var (
	_ adapter      = goRedis{}
	_ pathFamilier = goRedis{}
	_ scopeOpener  = goRedis{}
	_ flusher      = goRedis{}
	_ batchTyper   = goRedis{}
	_ scriptMaker  = goRedis{}
	_ ttlSetter    = goRedis{}
	_ outcomer     = goRedis{}
	_ nilReplier   = goRedis{}
	_ nilTester    = goRedis{}
	_ readBother   = goRedis{}
	_ replier      = goRedis{}
	_ releaser     = goRedis{}
	_ scriptRunner = goRedis{}
)

// goRedisCmd describes a command method by argument position, counted
// after the context argument when the method takes one.
type goRedisCmd struct {
	kind  Kind
	key   int // index of the key; -1 for variadic keys starting at 0
	value int // index of the value, or -1
	ttl   int // index of the TTL, or -1
	unit  Unit
	// nx: the method is SETNX-like (no TTL when ttl ≤ 0).
	nx bool
}

var goRedisCmds = map[string]goRedisCmd{
	"SetNX":     {kind: Acquire, key: 0, value: 1, ttl: 2, unit: Duration, nx: true},
	"Set":       {kind: Write, key: 0, value: 1, ttl: 2, unit: Duration},
	"SetXX":     {kind: Write, key: 0, value: 1, ttl: 2, unit: Duration},
	"SetEx":     {kind: Write, key: 0, value: 1, ttl: 2, unit: Duration},
	"SetEX":     {kind: Write, key: 0, value: 1, ttl: 2, unit: Duration},
	"GetSet":    {kind: GetSet, key: 0, value: 1, ttl: -1},
	"Expire":    {kind: Expire, key: 0, value: -1, ttl: 1, unit: Duration},
	"PExpire":   {kind: Expire, key: 0, value: -1, ttl: 1, unit: Duration},
	"ExpireNX":  {kind: Expire, key: 0, value: -1, ttl: 1, unit: Duration},
	"ExpireXX":  {kind: Expire, key: 0, value: -1, ttl: 1, unit: Duration},
	"ExpireGT":  {kind: Expire, key: 0, value: -1, ttl: 1, unit: Duration},
	"ExpireLT":  {kind: Expire, key: 0, value: -1, ttl: 1, unit: Duration},
	"ExpireAt":  {kind: Expire, key: 0, value: -1, ttl: 1, unit: Time},
	"PExpireAt": {kind: Expire, key: 0, value: -1, ttl: 1, unit: Time},
	"Del":       {kind: Delete, key: -1, value: -1, ttl: -1},
	"Unlink":    {kind: Delete, key: -1, value: -1, ttl: -1},
	"Get":       {kind: Get, key: 0, value: -1, ttl: -1},
	// Counters (Incr is read in goredis_incr.go: a lock or a counter).
	"IncrBy":       {kind: Counter, key: 0, value: 1, ttl: -1},
	"IncrByFloat":  {kind: Counter, key: 0, value: 1, ttl: -1},
	"Decr":         {kind: Counter, key: 0, value: -1, ttl: -1},
	"DecrBy":       {kind: Counter, key: 0, value: 1, ttl: -1},
	"HIncrBy":      {kind: Counter, key: 0, value: 2, ttl: -1},
	"HIncrByFloat": {kind: Counter, key: 0, value: 2, ttl: -1},
}

// Script-running methods: on the client (script/SHA first) and on
// *Script (client first).
var goRedisEval = map[string]bool{"Eval": true, "EvalSha": true, "EvalRO": true, "EvalShaRO": true}
var goRedisScriptRun = map[string]bool{"Run": true, "RunRO": true, "Eval": true, "EvalSha": true, "EvalRO": true, "EvalShaRO": true}

func goRedisNames() []string {
	ns := []string{"Do", "SetArgs", "DelExArgs", "TxPipelined", "Pipelined", "TxPipeline", "Pipeline", "Watch", "Run", "RunRO", "Exec", "ExecContext", "Discard", "Close", "Incr"}
	for n := range goRedisCmds {
		ns = append(ns, n)
	}
	for n := range goRedisEval {
		ns = append(ns, n)
	}
	return ns
}

func (g goRedis) family(fn *types.Func) string { return g.pathFamily(fn.Pkg().Path()) }

func (goRedis) pathFamily(path string) string { return goRedisPaths[path] }

func (goRedis) opensScope(fn *types.Func) (ScopeKind, bool, int, bool) {
	ctx := 0
	if takesContext(fn) {
		ctx = 1
	}
	switch fn.Name() {
	case "TxPipelined":
		return Tx, false, ctx, true
	case "Pipelined":
		return Pipeline, false, ctx, true
	case "TxPipeline":
		return Tx, false, -1, true
	case "Pipeline":
		return Pipeline, false, -1, true
	case "Watch":
		return Direct, true, ctx, true
	}
	return 0, false, 0, false
}

// advice: go-redis words only AdviseInTx; Tx.Pipelined and Tx.Pipeline
// are plain pipelines, TxPipelined and TxPipeline the transaction.
func (goRedis) advice(o *Op, a Advice) string {
	if a != AdviseInTx || !o.Scope.InWatch || o.Scope.Kind != Pipeline || o.Scope.Node == nil {
		return ""
	}
	sel, ok := ast.Unparen(o.Scope.Node.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	switch name := sel.Sel.Name; name {
	case "Pipelined", "Pipeline":
		return name + " inside Watch bypasses MULTI/EXEC and the WATCH; use Tx" + name
	}
	return ""
}

// batchType: a Pipeliner (the interface TxPipelined and Pipelined hand
// their callbacks, TxPipeline and Pipeline return) or a *Pipeline only
// queues what is called on it.
func (goRedis) batchType(t types.Type) bool {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || goRedisPaths[n.Obj().Pkg().Path()] == "" {
		return false
	}
	return n.Obj().Name() == "Pipeliner" || n.Obj().Name() == "Pipeline"
}

// flushes: Exec sends the queued commands and empties the pipeline
// (ExecContext in v7); Discard drops them, and so does Close on a v6–v8
// pipeline. Only calls on a pipeline are recorded as flushes.
func (goRedis) flushes(fn *types.Func) bool {
	switch fn.Name() {
	case "Exec", "ExecContext", "Discard", "Close":
		return true
	}
	return false
}

func (g goRedis) op(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func) *Op {
	info := pass.TypesInfo
	args := call.Args
	if takesContext(fn) {
		if len(args) == 0 {
			return nil
		}
		args = args[1:]
	}
	name := fn.Name()
	op := &Op{Call: call, Client: goRedisPaths[fn.Pkg().Path()], Method: name}
	arg := func(i int) ast.Expr {
		if i >= 0 && i < len(args) {
			return args[i]
		}
		return nil
	}

	// Script methods on *Script: (ctx,) client, keys, args...
	if recvNamed(fn) == "Script" {
		if !goRedisScriptRun[name] || len(args) < 2 {
			return nil
		}
		op.Kind = Script
		op.Script = ast.Unparen(call.Fun).(*ast.SelectorExpr).X
		op.setSliceKeys(args[1])
		op.Args = variadic(call, args[2:])
		return op
	}
	if goRedisEval[name] && recvNamed(fn) != "Script" {
		if len(args) < 2 {
			return nil
		}
		op.Kind = Script
		op.Script = args[0]
		op.setSliceKeys(args[1])
		op.Args = variadic(call, args[2:])
		if name == "Eval" || name == "EvalRO" {
			op.setScriptSrc(info, args[0])
		}
		return op
	}
	if name == "Do" {
		return g.do(info, op, call, args)
	}
	if name == "DelExArgs" {
		return g.delEx(info, op, args)
	}
	if name == "SetArgs" {
		return g.setArgs(info, op, args)
	}

	if name == "Incr" {
		return g.incr(pass, op, call, args) // goredis_incr.go
	}
	c, ok := goRedisCmds[name]
	if !ok {
		return nil
	}
	op.Kind = c.kind
	if c.key < 0 {
		op.setVariadicKeys(call, args)
	} else if k := arg(c.key); k != nil {
		op.Keys = []ast.Expr{k}
	} else {
		return nil
	}
	op.Value = arg(c.value)
	op.Overwrites = c.kind == Write && name != "SetXX"
	if c.ttl >= 0 {
		op.TTL = arg(c.ttl)
		op.TTLUnit = c.unit
	}
	switch c.kind {
	case Acquire:
		// SetNX(…, 0) sends SETNX (or SET NX) with no expiry; KeepTTL (-1)
		// on an absent key also leaves none.
		if v := constval.Int(info, op.TTL); v != nil && *v <= 0 {
			op.NoTTL = true
		}
	case GetSet:
		op.NoTTL = true
	}
	return op
}

// do reads a command sent by name, rdb.Do(ctx, "set", key, value, "nx",
// "px", ms), from the command table (commands.go), as redigo's c.Do is
// read: the name and option words are constants in any case, and the
// op's Method is the command's name in upper case. A name that is not a
// constant, or arguments passed as one spread slice, make no op.
func (goRedis) do(info *types.Info, op *Op, call *ast.CallExpr, args []ast.Expr) *Op {
	if len(args) == 0 || call.Ellipsis.IsValid() {
		return nil
	}
	name := constval.String(info, args[0])
	if name == nil {
		return nil
	}
	op.Method = strings.ToUpper(*name)
	return positional(info, op, op.Method, args[1:], false)
}

// setArgs handles SetArgs(ctx, key, value, redis.SetArgs{…}). It is an
// acquire only when Mode is a constant "NX"; with any other or an unknown
// mode it is a plain write.
func (goRedis) setArgs(info *types.Info, op *Op, args []ast.Expr) *Op {
	if len(args) < 3 {
		return nil
	}
	op.Keys = []ast.Expr{args[0]}
	op.Value = args[1]
	op.Kind = Write
	op.TTLUnit = Duration
	lit, ok := ast.Unparen(args[2]).(*ast.CompositeLit)
	if !ok {
		return op
	}
	var mode, ttl, expireAt, keepTTL, get ast.Expr
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		switch id.Name {
		case "Mode":
			mode = kv.Value
		case "TTL":
			ttl = kv.Value
		case "ExpireAt":
			expireAt = kv.Value
		case "KeepTTL":
			keepTTL = kv.Value
		case "Get":
			get = kv.Value
		}
	}
	if s := constval.String(info, mode); s != nil && strings.EqualFold(*s, "nx") {
		op.Kind = Acquire
	}
	op.Overwrites = mode == nil && (get == nil || isFalse(info, get))
	op.TTL = ttl
	if expireAt != nil {
		op.TTL, op.TTLUnit = expireAt, Time
	}
	if op.Kind == Acquire && expireAt == nil {
		// SetArgs sends a TTL only when it is > 0.
		if ttl == nil {
			// KEEPTTL on an absent key leaves it without one too.
			op.NoTTL = keepTTL == nil || constval.IsBool(info, keepTTL)
		} else if v := constval.Int(info, ttl); v != nil && *v <= 0 {
			op.NoTTL = true
		}
	}
	return op
}

func (goRedis) scriptCtor(call *ast.CallExpr, fn *types.Func) (ast.Expr, bool) {
	if (fn.Name() == "NewScript" || fn.Name() == "NewScriptServerSHA") && len(call.Args) >= 1 {
		if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() == nil {
			return call.Args[0], true
		}
	}
	return nil, false
}

// withTTL: go-redis acquires take the TTL in the unit of the Expire they
// pair with (a time.Duration).
func (goRedis) withTTL(pass *analysis.Pass, o *Op, ttl string, unit Unit) ([]analysis.TextEdit, bool) {
	if unit != o.TTLUnit || o.Kind != Acquire {
		return nil, false
	}
	if o.Method == "SetArgs" {
		lit, ok := ast.Unparen(o.Call.Args[len(o.Call.Args)-1]).(*ast.CompositeLit)
		if !ok {
			return nil, false
		}
		for _, e := range lit.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				return nil, false
			}
			switch kv.Key.(*ast.Ident).Name {
			case "TTL":
				return []analysis.TextEdit{fixes.Replace(kv.Value, ttl)}, true
			case "KeepTTL", "ExpireAt":
				// KEEPTTL with a TTL is a syntax error; leave it to a human.
				return nil, false
			}
		}
		return []analysis.TextEdit{fixes.AppendElt(pass.Fset, lit, "TTL: "+ttl)}, true
	}
	if o.TTL == nil {
		return nil, false
	}
	return []analysis.TextEdit{fixes.Replace(o.TTL, ttl)}, true
}

// delEx handles DelExArgs(ctx, key, redis.DelExArgs{Mode: …, …}) (go-redis
// v9, Redis ≥ 8.4). With a constant IFEQ or IFDEQ mode it deletes the key
// only while it holds the given value or digest: a CompareDelete. Other
// modes (IFNE, IFDNE, none, or not a constant) are not recognized.
func (goRedis) delEx(info *types.Info, op *Op, args []ast.Expr) *Op {
	if len(args) != 2 {
		return nil
	}
	lit, ok := ast.Unparen(args[1]).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var mode, value ast.Expr
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			return nil
		}
		switch id.Name {
		case "Mode":
			mode = kv.Value
		case "MatchValue", "MatchDigest":
			value = kv.Value
		}
	}
	m := constval.String(info, mode)
	if m == nil || value == nil {
		return nil
	}
	switch strings.ToUpper(*m) {
	case "IFEQ", "IFDEQ":
	default:
		return nil
	}
	op.Kind = CompareDelete
	op.Keys = []ast.Expr{args[0]}
	op.Value = value
	return op
}

// isFalse reports whether e is the constant false.
func isFalse(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}
