package redisops

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// rueidisClient knows github.com/redis/rueidis, and any client with its
// API under another module path: commands built with the
// typed builder (client.B().Set().Key(k).Value(v).Nx().ExSeconds(30).Build())
// and sent with Do or DoCache, or batched with DoMulti, and Lua scripts
// run with (*Lua).Exec. (rueidiscompat, the go-redis-shaped adapter, is
// the go-redis adapter's.)
//
// A command is an operation only where its builder chain can be read:
// written in the call, or assigned to a local variable from a chain in the
// same function and used once. An op sent by Do or DoCache is the Do call
// (its reply is read there); an op batched by DoMulti is the Build() call
// of its element, in a Tx scope when the batch holds a MULTI, a Pipeline
// scope otherwise, opened by the DoMulti call. Ops on a dedicated
// connection after a WATCH sent on it in the same function are InWatch.
//
// Method is the Redis command (SETNX, SET, EXPIRE, …), or Exec for a Lua
// script object.
type rueidisClient struct {
	name  string // the ops' Client
	path  string // the client package
	pkg   string // its package name
	isNil string // its predicate that tests an error for the nil reply
	cmds  string // the package of its command builders
}

// newRueidisClient describes a client with rueidis' API: its name (the
// ops' Client), package path and name, and nil-reply predicate.
func newRueidisClient(name, path, pkg, isNil string) rueidisClient {
	return rueidisClient{name: name, path: path, pkg: pkg, isNil: isNil, cmds: path + "/internal/cmds"}
}

// rueidisNative is rueidis itself.
var rueidisNative = newRueidisClient("rueidis", "github.com/redis/rueidis", "rueidis", "IsRedisNil")

// rueidisNames are the calls a rueidis-like client's ops can be.
var rueidisNames = []string{"Do", "DoCache", "DoMulti", "Build", "Exec"}

// valkey-go, the same API under another module path, is one more
// registration of this adapter (valkey.go).
func init() { register(rueidisNative, rueidisNames) }

// The capabilities this adapter has (capabilities.go).
var (
	_ adapter      = rueidisNative
	_ pathFamilier = rueidisNative
	_ scriptMaker  = rueidisNative
	_ ttlSetter    = rueidisNative
	_ outcomer     = rueidisNative
	_ nilReplier   = rueidisNative
	_ nilTester    = rueidisNative
	_ readBother   = rueidisNative
	_ replier      = rueidisNative
	_ releaser     = rueidisNative
	_ scriptRunner = rueidisNative
	_ ttlArger     = rueidisNative
	_ adviser      = rueidisNative
)

// ours reports whether path is the client package.
func (r rueidisClient) ours(path string) bool { return path == r.path }

func (r rueidisClient) family(fn *types.Func) string { return r.pathFamily(fn.Pkg().Path()) }

func (r rueidisClient) pathFamily(path string) string {
	switch path {
	case r.path, r.cmds:
		return r.name
	}
	return ""
}

// scriptCtor: rueidis.NewLuaScript(src, opts…) and its variants
// (ReadOnly, NoSha, Retryable).
func (r rueidisClient) scriptCtor(call *ast.CallExpr, fn *types.Func) (ast.Expr, bool) {
	if fn.Pkg().Path() != r.path || !strings.HasPrefix(fn.Name(), "NewLuaScript") || len(call.Args) == 0 {
		return nil, false
	}
	if sig := fn.Signature(); sig.Recv() != nil {
		return nil, false
	}
	return call.Args[0], true
}

// --- builder chains ---

// rcmd is a command read from a builder chain.
type rcmd struct {
	name  string        // the Redis command: "SET", "SETNX", "EXPIRE", …
	root  ast.Expr      // the builder the command method is called on (client.B())
	cmd   *ast.CallExpr // the command method's call (….Set())
	steps []rstep       // the methods after it, up to and including end
	end   *ast.CallExpr // the Build() or Cache() call
}

type rstep struct {
	name string
	call *ast.CallExpr
}

// step returns the first step called name, or nil.
func (c *rcmd) step(name string) *rstep {
	for i := range c.steps {
		if c.steps[i].name == name {
			return &c.steps[i]
		}
	}
	return nil
}

// arg is the single argument of the first step called name, or nil.
func (c *rcmd) arg(name string) ast.Expr {
	if s := c.step(name); s != nil && len(s.call.Args) == 1 && !s.call.Ellipsis.IsValid() {
		return s.call.Args[0]
	}
	return nil
}

// parseChain reads the builder chain ending in the Build() or Cache() call
// e. It fails for anything else.
func (r rueidisClient) parseChain(info *types.Info, e ast.Expr) *rcmd {
	end, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	c := &rcmd{end: end}
	x := ast.Expr(end)
	for range 64 {
		call, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			return nil
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != r.cmds || fn.Signature().Recv() == nil {
			return nil
		}
		if recvNamed(fn) == "Builder" {
			if len(c.steps) == 0 {
				return nil
			}
			c.name, c.root, c.cmd = strings.ToUpper(fn.Name()), sel.X, call
			if n := c.steps[len(c.steps)-1].name; n != "Build" && n != "Cache" {
				return nil
			}
			return c
		}
		c.steps = append([]rstep{{name: fn.Name(), call: call}}, c.steps...)
		x = sel.X
	}
	return nil
}

// chainAt reads the command argument e of a Do, DoCache or DoMulti call:
// a chain written there, or a local variable of body defined once from a
// chain and used only there (at use). inline reports the former.
func (r rueidisClient) chainAt(info *types.Info, body *ast.BlockStmt, e ast.Expr) (c *rcmd, inline bool) {
	if c := r.parseChain(info, e); c != nil {
		return c, true
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || body == nil {
		return nil, false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	rhs, uses := astx.SoleDef(info, body, v)
	if rhs == nil || uses != 1 {
		return nil, false
	}
	return r.parseChain(info, rhs), false
}

// sends reports whether fn is the client method name (Do, DoCache,
// DoMulti).
func (r rueidisClient) sends(fn *types.Func, name string) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == r.path && fn.Name() == name && fn.Signature().Recv() != nil
}

// --- operations ---

func (r rueidisClient) op(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func) *Op {
	info := pass.TypesInfo
	switch {
	case fn.Pkg().Path() == r.cmds && fn.Name() == "Build":
		return r.batched(pass, call)
	case r.sends(fn, "Do") || r.sends(fn, "DoCache"):
		if len(call.Args) < 2 {
			return nil
		}
		cur, ok := cursorAt(pass, call)
		if !ok {
			return nil
		}
		body := funcBody(cur)
		c, _ := r.chainAt(info, body, call.Args[1])
		if c == nil {
			return nil
		}
		verdict := false
		if c.name == "INCR" {
			if !r.sends(fn, "Do") {
				return nil
			}
			lk, v := r.incr(pass, call, c) // rueidis_incr.go
			if lk != nil {
				lk.Recv = ast.Unparen(call.Fun).(*ast.SelectorExpr).X
				lk.Scope.InWatch = r.watched(info, body, lk.Recv, call.Pos())
				return lk
			}
			verdict = v
		}
		op := r.fromChain(info, call, c)
		if op == nil {
			return nil
		}
		op.incrVerdict = verdict
		op.Recv = ast.Unparen(call.Fun).(*ast.SelectorExpr).X
		op.Scope.InWatch = r.watched(info, body, op.Recv, call.Pos())
		return op
	case fn.Name() == "Exec" && recvNamed(fn) == "Lua" && fn.Pkg().Path() == r.path:
		// s.Exec(ctx, client, keys, args)
		if len(call.Args) != 4 {
			return nil
		}
		op := &Op{Kind: Script, Call: call, Client: r.name, Method: "Exec"}
		op.Script = ast.Unparen(call.Fun).(*ast.SelectorExpr).X
		op.setSliceKeys(call.Args[2])
		if lit, ok := ast.Unparen(call.Args[3]).(*ast.CompositeLit); ok {
			op.Args = lit.Elts
		}
		// rueidis.NewLuaScript(src).Exec(…)
		if ctor, ok := ast.Unparen(op.Script).(*ast.CallExpr); ok {
			if cfn, ok := typeutil.Callee(info, ctor).(*types.Func); ok && cfn.Pkg() != nil {
				if src, ok := r.scriptCtor(ctor, cfn); ok {
					op.setScriptSrc(info, src)
				}
			}
		}
		return op
	}
	return nil
}

// batched builds the op for the Build() call of a command batched by
// DoMulti: an argument of the DoMulti call, or assigned to a local
// variable that is one.
func (r rueidisClient) batched(pass *analysis.Pass, build *ast.CallExpr) *Op {
	info := pass.TypesInfo
	cur, ok := cursorAt(pass, build)
	if !ok {
		return nil
	}
	var multi *ast.CallExpr
	switch p := cur.Parent().Node().(type) {
	case *ast.CallExpr:
		multi = p
	case *ast.AssignStmt, *ast.ValueSpec:
		// cmd := ….Build(); … DoMulti(ctx, …, cmd, …)
		obj := assignedTo(info, cur)
		v, ok := obj.(*types.Var)
		body := funcBody(cur)
		if !ok || body == nil {
			return nil
		}
		if rhs, uses := astx.SoleDef(info, body, v); rhs != build || uses != 1 {
			return nil
		}
		ast.Inspect(body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && multi == nil {
				for _, a := range call.Args {
					if id, ok := ast.Unparen(a).(*ast.Ident); ok && info.Uses[id] == v {
						multi = call
					}
				}
			}
			return multi == nil
		})
	}
	if multi == nil || multi.Ellipsis.IsValid() || len(multi.Args) < 2 {
		return nil
	}
	if fn, ok := typeutil.Callee(info, multi).(*types.Func); !ok || !r.sends(fn, "DoMulti") {
		return nil
	}
	c := r.parseChain(info, build)
	if c == nil {
		return nil
	}
	op := r.fromChain(info, build, c)
	if op == nil {
		return nil
	}
	mcur, ok := cursorAt(pass, multi)
	if !ok {
		return nil
	}
	body := funcBody(mcur)
	recv := ast.Unparen(multi.Fun).(*ast.SelectorExpr).X
	op.Recv = recv
	op.Scope = Scope{Kind: Pipeline, Node: multi, Client: recv, InWatch: r.watched(info, body, recv, multi.Pos())}
	for _, a := range multi.Args[1:] {
		if ac, _ := r.chainAt(info, body, a); ac != nil && ac.name == "MULTI" {
			op.Scope.Kind = Tx
		}
	}
	return op
}

// watched reports whether a WATCH was sent on the dedicated connection recv
// (a variable) earlier in body: the optimistic check-then-set recipe.
func (r rueidisClient) watched(info *types.Info, body *ast.BlockStmt, recv ast.Expr, pos token.Pos) bool {
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok || body == nil {
		return false
	}
	obj := info.Uses[id]
	if obj == nil {
		return false
	}
	// Only a dedicated connection keeps a WATCH for the commands after it.
	if n, ok := types.Unalias(obj.Type()).(*types.Named); !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != r.path || n.Obj().Name() != "DedicatedClient" {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if found || !ok || call.Pos() >= pos {
			return !found
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) < 2 {
			return true
		}
		if x, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || info.Uses[x] != obj {
			return true
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok || !r.sends(fn, "Do") && !r.sends(fn, "DoMulti") {
			return true
		}
		for _, a := range call.Args[1:] {
			if c, _ := r.chainAt(info, body, a); c != nil && c.name == "WATCH" {
				found = true
			}
		}
		return !found
	})
	return found
}

// rueidisAliases are the builder commands whose upper-cased names are not
// the Redis command's.
var rueidisAliases = map[string]string{"EVALRO": "EVAL_RO", "EVALSHARO": "EVALSHA_RO"}

// rueidisOptionSteps are the builder steps that send an option word: the
// word, and for the steps that take a Go value rather than a count, the
// unit of that value and what rueidis truncates it to (Ex(d) sends whole
// seconds of the time.Duration d).
var rueidisOptionSteps = map[string]struct {
	word  string
	unit  Unit
	trunc time.Duration
}{
	"Nx": {word: "NX"}, "Xx": {word: "XX"}, "Gt": {word: "GT"}, "Lt": {word: "LT"},
	"Get": {word: "GET"}, "Keepttl": {word: "KEEPTTL"},
	"ExSeconds": {word: "EX"}, "PxMilliseconds": {word: "PX"},
	"ExatTimestamp": {word: "EXAT"}, "PxatMillisecondsTimestamp": {word: "PXAT"},
	"Ex": {word: "EX", unit: Duration, trunc: time.Second}, "Px": {word: "PX", unit: Duration, trunc: time.Millisecond},
	"Exat": {word: "EXAT", unit: Time}, "Pxat": {word: "PXAT", unit: Time},
	"Ifeq": {word: "IFEQ"}, "Ifne": {word: "IFNE"}, "Ifdeq": {word: "IFDEQ"}, "Ifdne": {word: "IFDNE"},
}

// command is the table's row for c, or nil.
func (c *rcmd) command() *command {
	if n, ok := rueidisAliases[c.name]; ok {
		return commands[n]
	}
	return commands[c.name]
}

// opts reads the option steps of c, a chain of the command cmd.
func (c *rcmd) opts(cmd *command) cmdOpts {
	var o cmdOpts
	for _, s := range c.steps {
		st, ok := rueidisOptionSteps[s.name]
		opt, known := cmd.opts[st.word]
		if !ok || !known {
			continue
		}
		var arg ast.Expr
		if opt.takesArg {
			if len(s.call.Args) == 1 && !s.call.Ellipsis.IsValid() {
				arg = s.call.Args[0]
			} else if opt.effect == optTTL {
				continue
			}
		}
		if st.unit != NoUnit {
			opt.unit = st.unit
		}
		o.apply(opt, arg)
		if opt.effect == optTTL {
			o.trunc = st.trunc
			if sel, ok := ast.Unparen(s.call.Fun).(*ast.SelectorExpr); ok {
				o.word = sel.Sel
			}
		}
	}
	return o
}

// fromChain builds the op of the command c, sent by call, from the
// command table: each argument is the builder step named after it.
func (r rueidisClient) fromChain(info *types.Info, call *ast.CallExpr, c *rcmd) *Op {
	cmd := c.command()
	if cmd == nil {
		return nil
	}
	op := &Op{Call: call, Client: r.name, Method: c.name}
	fixed := make([]ast.Expr, len(cmd.args))
	for i, a := range cmd.args {
		switch a.role {
		case roleKeys, roleNumKeys:
			// Key(k…) steps, then the script's Arg(a…) steps.
			keySteps := 0
			for _, s := range c.steps {
				if s.name == "Key" {
					keySteps++
				}
				switch {
				case s.name == "Key" && s.call.Ellipsis.IsValid():
					op.KeysSpread = true
					if len(s.call.Args) == 1 {
						op.KeySlice = s.call.Args[0] // Key(keys...)
					}
				case s.name == "Key":
					op.Keys = append(op.Keys, s.call.Args...)
				case s.name == "Arg" && !s.call.Ellipsis.IsValid():
					op.Args = append(op.Args, s.call.Args...)
				}
			}
			if keySteps > 1 {
				op.KeySlice = nil // Key(a).Key(rest...): no one slice
			}
			if a.role == roleKeys && len(op.Keys) == 0 && !op.KeysSpread {
				return nil
			}
		default:
			fixed[i] = c.arg(a.step)
		}
	}
	if cmd.fill(info, op, fixed, c.opts(cmd)) == nil {
		return nil
	}
	if cmd == commands["SET"] && op.TTL == nil {
		// A SET with no expiry would take one in seconds (ExSeconds).
		op.TTLUnit = Seconds
	}
	return op
}

// chainOf re-reads the builder chain of the op o, and reports whether it
// is written in the op's call (not through a variable).
func (r rueidisClient) chainOf(o *Op) (*rcmd, bool) {
	if o.Func == nil || o.Kind == Script && o.Method == "Exec" {
		return nil, false
	}
	info := o.Func.info
	if fn, ok := typeutil.Callee(info, o.Call).(*types.Func); ok && fn.Name() == "Build" {
		return r.parseChain(info, o.Call), true
	}
	if len(o.Call.Args) < 2 {
		return nil, false
	}
	return r.chainAt(info, o.Func.Body, o.Call.Args[1])
}

// sentBy reports whether o is a command sent on its own by one of the
// client methods names (Do, DoCache).
func (r rueidisClient) sentBy(o *Op, names ...string) bool {
	if o.Func == nil {
		return false
	}
	fn, ok := typeutil.Callee(o.Func.info, o.Call).(*types.Func)
	if !ok {
		return false
	}
	for _, n := range names {
		if r.sends(fn, n) {
			return true
		}
	}
	return false
}

// withTTL adds an expiry in unit to a SETNX (which becomes SET … NX) or
// a SET NX without one, written in the op's call: ExSeconds for seconds,
// PxMilliseconds for milliseconds.
func (r rueidisClient) withTTL(pass *analysis.Pass, o *Op, ttl string, unit Unit) ([]analysis.TextEdit, bool) {
	if o.Kind != Acquire || !o.NoTTL {
		return nil, false
	}
	c, inline := r.chainOf(o)
	if c == nil || !inline || c.step("Keepttl") != nil {
		return nil, false
	}
	var exp string
	switch unit {
	case Seconds:
		exp = ".ExSeconds(" + ttl + ")"
	case Millis:
		exp = ".PxMilliseconds(" + ttl + ")"
	default:
		return nil, false
	}
	sel, ok := ast.Unparen(c.end.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	at := sel.X.End()
	switch c.name {
	case "SETNX":
		csel, ok := ast.Unparen(c.cmd.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		edits := []analysis.TextEdit{
			fixes.Replace(csel.Sel, "Set"),
			{Pos: at, End: at, NewText: []byte(".Nx()" + exp)},
		}
		if !r.sentBy(o, "Do", "DoCache") {
			// Batched by DoMulti: its replies come back in the batch's
			// slice, which the caller (LV102) requires nobody reads.
			return edits, true
		}
		read, ok := r.keepSetnxRead(pass, o)
		if !ok {
			return nil, false
		}
		return append(edits, read...), true
	case "SET":
		return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(exp)}}, true
	}
	return nil, false
}

// keepSetnxRead returns the edits that keep what the code reads from a
// SETNX sent by Do once it becomes SET … NX: SETNX answers 1 or 0, which
// AsBool reads as (true, nil) / (false, nil) and Error as nil either way;
// SET NX answers OK or a nil reply, which AsBool reads as (true, nil) /
// (false, rueidis.Nil) and Error as nil / rueidis.Nil. A busy lock would
// turn into an error. So the read becomes Error(), the value is derived
// from it and the nil reply is cleared, statement by statement:
//
//	ok, err := c.Do(ctx, setnx).AsBool()  →  err := c.Do(ctx, setnx).Error()
//	                                          ok := err == nil
//	                                          if rueidis.IsRedisNil(err) {
//	                                          	err = nil
//	                                          }
//	ok, _ := ….AsBool()                   →  ok := ….Error() == nil
//	err := ….Error()                      →  the same, plus the if
//
// Transport and server errors stay what they were (Error returns them as
// AsBool does, and the value is then false). A discarded reply needs no
// edit. Any other read (in place, in an if's init, returned, another
// accessor): false.
func (r rueidisClient) keepSetnxRead(pass *analysis.Pass, o *Op) ([]analysis.TextEdit, bool) {
	out, ok := r.outcome(pass.TypesInfo, o)
	if !ok {
		return nil, false
	}
	file := fileAt(pass, o.res, o.Call.Pos())
	if file == nil {
		return nil, false
	}
	pkg, imp, ok := fixes.Import(pass, file, r.path, r.pkg, o.Call.Pos())
	if !ok {
		return nil, false
	}
	used := false
	edits, ok := keepBusyFalse(pass, out, busyRead{
		from: "AsBool", to: "Error", errOnly: "Error",
		isNil: func(e string) string { used = true; return pkg + "." + r.isNil + "(" + e + ")" },
	})
	if !ok || !used {
		return edits, ok
	}
	return append(edits, imp...), true
}

// --- outcome ---

// rueidisReads are the accessors on a RedisResult and what they yield.
var rueidisReads = map[string]readShape{
	"Error": readErrOnly, "NonRedisError": readErrOnly,
	"AsBool": readPair, "ToString": readPair, "AsInt64": readPair, "ToInt64": readPair,
}

func (r rueidisClient) outcome(info *types.Info, o *Op) (Outcome, bool) {
	c, _ := r.chainOf(o)
	if c == nil || !r.sentBy(o, "Do") {
		return Outcome{}, false
	}
	out := Outcome{Busy: BusyErr}
	switch {
	case c.name == "SETNX":
		out.Busy = BusyFalse
	case c.name == "SET" && c.step("Get") == nil:
	default:
		return Outcome{}, false
	}
	out = readReply(info, out, o, rueidisReads, r.ours)
	if out.Accessor != nil && out.Accessor.Fun.(*ast.SelectorExpr).Sel.Name == "NonRedisError" {
		out.Busy = BusyFalse
	}
	return out, true
}

func (r rueidisClient) busyErr(info *types.Info, _ *Op, e ast.Expr) bool {
	return isPkgVar(info, e, "Nil", r.ours)
}

func (r rueidisClient) busyTest(info *types.Info, _ *Op, call *ast.CallExpr) (ast.Expr, bool) {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != r.path || fn.Name() != r.isNil || len(call.Args) != 1 {
		return nil, false
	}
	return call.Args[0], true
}

func (rueidisClient) readBoth(out Outcome, name string) ([]analysis.TextEdit, bool) {
	return readBothVia(out, name, "Error", "AsBool")
}

// --- replies ---

func (r rueidisClient) reply(info *types.Info, o *Op) (ast.Expr, *types.Var) {
	if !r.sentBy(o, "Do", "DoCache") {
		return nil, nil
	}
	sel, acc, ok := accessor(o.Cursor)
	if !ok {
		return nil, nil
	}
	switch sel.Sel.Name {
	case "ToString", "AsBool", "AsInt64", "ToInt64":
	default:
		return nil, nil
	}
	return nil, pairFirst(info, acc.Parent().Node())
}

// --- owner-checked release and renewal ---

// releases rewrites a DEL of one key sent by Do, written in the call:
// into DELEX key IFEQ token (Redis ≥ 8.4), and into a run of the
// compare-and-delete script on the same client (a rueidis.Client: Lua
// scripts do not run on a dedicated connection). Both answer 1 or 0, as
// DEL of one key does, in the same RedisResult.
func (r rueidisClient) releases(pass *analysis.Pass, o *Op, tok string, opts ReleaseOptions) []Release {
	c, inline := r.chainOf(o)
	if c == nil || !inline || !r.sentBy(o, "Do") || c.name != "DEL" && c.name != "UNLINK" {
		return nil
	}
	fn, ok := typeutil.Callee(pass.TypesInfo, o.Call).(*types.Func)
	if !ok {
		return nil
	}
	key := fixes.Text(pass.Fset, o.Keys[0])
	var out []Release
	if opts.DelEx && !opts.Prefix && methodOf(pass.TypesInfo.TypeOf(c.root), nil, "Delex") != nil {
		text := fmt.Sprintf("%s.Delex().Key(%s).Ifeq(%s).Build()", fixes.Text(pass.Fset, c.root), key, tok)
		out = append(out, Release{Kind: ReleaseDelEx, Edits: []analysis.TextEdit{fixes.Replace(c.end, text)}})
	}
	vars := NewScriptVars(pass, o.res)
	spec := unlockSpec(opts)
	if v, decl, ok := vars.Var(o.Call.Pos(), fn.Pkg(), "NewLuaScript", spec.name, spec.doc, spec.src, spec.like); ok {
		if run, ok := r.runScript(pass, o, v, []string{key}, []string{tok}); ok {
			out = append(out, Release{Kind: ReleaseScript, Edits: append(decl, run...)})
		}
	}
	return out
}

// renewable: EXPIRE and PEXPIRE, plain or XX, sent by Do and written in
// the call (the replacement drops the chain).
func (r rueidisClient) renewable(o *Op) bool {
	c, inline := r.chainOf(o)
	if c == nil || !inline || !r.sentBy(o, "Do") {
		return false
	}
	cmd := c.command()
	return cmd != nil && cmd.renewable(c.opts(cmd))
}

func (r rueidisClient) scriptCtorFor(pass *analysis.Pass, o *Op) (*types.Package, string, bool) {
	return ctorIn(pass, o, "NewLuaScript", r.ours)
}

// runScript replaces client.Do(ctx, cmd) by v.Exec(ctx, client,
// []string{keys…}, []string{args…}). Exec returns a RedisResult too, so
// the reply is read the same way; the client must be a rueidis.Client.
func (r rueidisClient) runScript(pass *analysis.Pass, o *Op, v string, keys, args []string) ([]analysis.TextEdit, bool) {
	info := pass.TypesInfo
	pkg, ctor, ok := r.scriptCtorFor(pass, o)
	if !ok || !r.sentBy(o, "Do") || o.Recv == nil {
		return nil, false
	}
	ctorFn := pkg.Scope().Lookup(ctor).(*types.Func)
	if ctorFn.Signature().Results().Len() != 1 {
		return nil, false
	}
	exec := methodOf(ctorFn.Signature().Results().At(0).Type(), pkg, "Exec")
	if exec == nil || exec.Signature().Params().Len() != 4 || !types.AssignableTo(info.TypeOf(o.Recv), exec.Signature().Params().At(1).Type()) ||
		!types.Identical(exec.Signature().Results(), typeutil.Callee(info, o.Call).(*types.Func).Signature().Results()) {
		return nil, false
	}
	text := fmt.Sprintf("%s.Exec(%s, %s, []string{%s}, []string{%s})", v, fixes.Text(pass.Fset, o.Call.Args[0]),
		fixes.Text(pass.Fset, o.Recv), strings.Join(keys, ", "), strings.Join(args, ", "))
	return []analysis.TextEdit{fixes.Replace(o.Call, text)}, true
}

// ttlArg writes the TTL of an EXPIRE (seconds) or PEXPIRE (milliseconds)
// as a string argument in milliseconds: a constant as a string literal,
// anything else through strconv.FormatInt (importing strconv when the file
// does not). A count derived from a time.Duration d (int64(d/time.Second),
// int64(d.Seconds()), d.Milliseconds(), …) is passed as d.Milliseconds().
func (rueidisClient) ttlArg(pass *analysis.Pass, o *Op) (string, []analysis.TextEdit, bool) {
	info := pass.TypesInfo
	var scale int64
	switch o.TTLUnit {
	case Seconds:
		scale = 1000
	case Millis:
		scale = 1
	default:
		return "", nil, false
	}
	if v := constval.Int(info, o.TTL); v != nil {
		if *v <= 0 || *v > (1<<62)/scale {
			return "", nil, false
		}
		return fmt.Sprintf("%q", fmt.Sprint(*v*scale)), nil, true
	}
	ms := ""
	if d := durationCount(info, o.TTL, time.Duration(scale)*time.Millisecond); d != nil {
		ms = operand(fixes.Text(pass.Fset, d), d, false) + ".Milliseconds()"
	} else {
		ms = fixes.Text(pass.Fset, o.TTL)
		if scale != 1 {
			ms = operand(ms, o.TTL, true) + " * 1000"
		}
	}
	file := fileAt(pass, o.res, o.Call.Pos())
	if file == nil {
		return "", nil, false
	}
	name, edits, ok := fixes.Import(pass, file, "strconv", "strconv", o.Call.Pos())
	if !ok {
		return "", nil, false
	}
	return fmt.Sprintf("%s.FormatInt(%s, 10)", name, ms), edits, true
}

// durationCount matches an integer count of unit taken from a
// time.Duration d: int64(d / unit), int64(d.Seconds()) (unit a second),
// d.Milliseconds() (unit a millisecond). It returns d, or nil.
func durationCount(info *types.Info, e ast.Expr, unit time.Duration) ast.Expr {
	e = ast.Unparen(e)
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return nil
	}
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		// A conversion: int64(d / time.Second), int64(d.Seconds()).
		x := ast.Unparen(call.Args[0])
		if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.QUO && isDuration(info.TypeOf(b.X)) {
			if v := constval.Int(info, b.Y); v != nil && *v == int64(unit) {
				return b.X
			}
			return nil
		}
		return durationCount(info, x, unit)
	}
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !isSel || len(call.Args) != 0 || fn.Signature().Recv() == nil || !isDuration(fn.Signature().Recv().Type()) {
		return nil
	}
	switch {
	case fn.Name() == "Seconds" && unit == time.Second, fn.Name() == "Milliseconds" && unit == time.Millisecond:
		return sel.X
	}
	return nil
}

// advice: SETNX takes no TTL; the one-step acquire is the SET builder with
// Nx and PxMilliseconds (or ExSeconds).
func (rueidisClient) advice(o *Op, a Advice) string {
	if a == AdviseInTx && o.Scope.InWatch && o.Scope.Kind == Pipeline {
		return "WATCH does not guard DoMulti without MULTI; put B().Multi() first, B().Exec() last"
	}
	if a != AdviseTTL {
		return ""
	}
	switch o.Method {
	case "SETNX":
		return "use B().Set()….Nx().PxMilliseconds(ms)"
	case "SET":
		return "add .PxMilliseconds(ms) to the SET"
	}
	return ""
}
