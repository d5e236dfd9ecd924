package redisops

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/internal/keyid"
)

// redigo knows github.com/gomodule/redigo/redis (and its original import
// path github.com/garyburd/redigo/redis, the same API). Commands are
// strings: c.Do("SET", key, value, "NX", "PX", ms), c.Send(…),
// DoContext/DoWithTimeout on the connection or as package functions
// (redis.DoContext(c, ctx, …)), and scripts made by redis.NewScript(n, src)
// run with Do/DoContext/Send/SendHash. A command is an operation only when
// its name is a constant (any case); the options of SET may come in any
// order.
//
// There are no pipeline objects: MULTI … EXEC and Send … Flush/Do are
// commands on a connection, so the scope of an operation comes from the
// calls before it on the same connection in the same function, in source
// order (connScope).
type redigo struct{}

func init() {
	register(redigo{}, []string{"Do", "Send", "DoContext", "DoWithTimeout", "SendHash"})
}

// The capabilities this adapter has (capabilities.go).
var (
	_ adapter      = redigo{}
	_ pathFamilier = redigo{}
	_ connFlusher  = redigo{}
	_ connArger    = redigo{}
	_ scriptMaker  = redigo{}
	_ ttlSetter    = redigo{}
	_ outcomer     = redigo{}
	_ nilReplier   = redigo{}
	_ readBother   = redigo{}
	_ replier      = redigo{}
	_ releaser     = redigo{}
	_ scriptRunner = redigo{}
	_ ctorArger    = redigo{}
	_ ttlArger     = redigo{}
	_ adviser      = redigo{}
)

var redigoPaths = map[string]string{
	"github.com/gomodule/redigo/redis": "redigo",
	"github.com/garyburd/redigo/redis": "redigo",
}

func (r redigo) family(fn *types.Func) string { return r.pathFamily(fn.Pkg().Path()) }

func (redigo) pathFamily(path string) string { return redigoPaths[path] }

// redigoCall is a call that talks to a connection.
type redigoCall struct {
	fn     *types.Func
	conn   ast.Expr   // the connection
	cmd    ast.Expr   // the command name argument; nil for script runs, Flush and Close
	name   string     // the command name, upper-cased, when cmd is a constant
	named  bool       // cmd is a constant
	args   []ast.Expr // the arguments after the command name (script runs: keys and arguments)
	spread bool       // the last argument is spread (args...)
	script ast.Expr   // the script of a script run
	ctx    ast.Expr   // the context argument of the DoContext forms
	send   bool       // queued, not sent: Send, Script.Send, Script.SendHash
	flush  bool       // Flush
	reset  bool       // Close: the connection goes back to the pool
	method string     // the Go function or method name
	fwd    bool       // a call of a forwarder of Do or Send (mirror_forward.go): conn is the wrapper, fn the forwarder
}

// redigoOf describes the call of o: the command a forwarder's call
// sends, or the redigo call itself.
func redigoOf(info *types.Info, o *Op) (*redigoCall, bool) {
	if o.fwd != nil {
		return o.fwd, true
	}
	return parseRedigo(info, o.Call)
}

// parseRedigo describes a call of a redigo function or method that talks
// to a connection.
func parseRedigo(info *types.Info, call *ast.CallExpr) (*redigoCall, bool) {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || redigoPaths[fn.Pkg().Path()] == "" {
		return nil, false
	}
	rc := &redigoCall{fn: fn, method: fn.Name(), spread: call.Ellipsis.IsValid()}
	args := call.Args
	sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	switch {
	case fn.Signature().Recv() == nil:
		// redis.DoContext(c, ctx, cmd, …), redis.DoWithTimeout(c, d, cmd, …)
		if fn.Name() != "DoContext" && fn.Name() != "DoWithTimeout" || len(args) < 3 {
			return nil, false
		}
		rc.conn, rc.cmd, rc.args = args[0], args[2], args[3:]
		if fn.Name() == "DoContext" {
			rc.ctx = args[1]
		}
	case recvNamed(fn) == "Script":
		if sel == nil {
			return nil, false
		}
		rc.script = sel.X
		switch fn.Name() {
		case "Do", "Send", "SendHash":
			if len(args) < 1 {
				return nil, false
			}
			rc.conn, rc.args, rc.send = args[0], args[1:], fn.Name() != "Do"
		case "DoContext":
			if len(args) < 2 {
				return nil, false
			}
			rc.ctx, rc.conn, rc.args = args[0], args[1], args[2:]
		default:
			return nil, false
		}
		return rc, true
	default:
		if sel == nil {
			return nil, false
		}
		rc.conn = sel.X
		switch fn.Name() {
		case "Do", "Send":
			if len(args) < 1 {
				return nil, false
			}
			rc.cmd, rc.args, rc.send = args[0], args[1:], fn.Name() == "Send"
		case "DoContext", "DoWithTimeout":
			if len(args) < 2 {
				return nil, false
			}
			rc.cmd, rc.args = args[1], args[2:]
			if fn.Name() == "DoContext" {
				rc.ctx = args[0]
			}
		case "Flush":
			rc.flush = true
			return rc, true
		case "Close":
			rc.reset = true
			return rc, true
		default:
			return nil, false
		}
	}
	if s := constval.String(info, rc.cmd); s != nil {
		rc.name, rc.named = strings.ToUpper(*s), true
	}
	return rc, true
}

func (r redigo) op(pass *analysis.Pass, call *ast.CallExpr, _ *types.Func) *Op {
	info := pass.TypesInfo
	rc, ok := parseRedigo(info, call)
	if !ok || rc.flush || rc.reset {
		return nil
	}
	op := &Op{Call: call, Client: "redigo", Method: rc.name, Recv: rc.conn}
	if rc.script != nil {
		op.Method, op.Recv = rc.method, rc.script
		r.scriptRun(pass, op, rc)
		op.Scope = connScope(pass, call, rc)
		return op
	}
	if !rc.named {
		return nil // a command chosen at run time
	}
	verdict := false
	if rc.name == "INCR" {
		var lk *Op
		if lk, verdict = r.incr(pass, op, call, rc); lk != nil { // redigo_incr.go
			return lk
		}
	}
	if positional(info, op, rc.name, rc.args, rc.spread) == nil {
		return nil
	}
	op.incrVerdict = verdict
	op.Scope = connScope(pass, call, rc)
	return op
}

// scriptRun fills the op of s.Do(c, keysAndArgs…) (DoContext, Send,
// SendHash): the keys are the first keyCount arguments, keyCount and the
// source coming from the redis.NewScript call that made s in this package.
// Without it the keys are unknown.
func (redigo) scriptRun(pass *analysis.Pass, op *Op, rc *redigoCall) {
	info := pass.TypesInfo
	op.Kind, op.Script = Script, rc.script
	ctor := redigoScriptCtor(pass, rc.script)
	if rc.spread || ctor == nil {
		op.KeysSpread = true
		return
	}
	op.setScriptSrc(info, ctor.Args[1])
	n := constval.Int(info, ctor.Args[0])
	switch {
	case n == nil || int(*n) > len(rc.args):
		op.KeysSpread = true
	case *n < 0: // the caller passes the key count first
		if len(rc.args) == 0 {
			op.KeysSpread = true
			return
		}
		splitKeys(info, op, rc.args[0], rc.args[1:])
	default:
		op.Keys, op.Args = rc.args[:*n], rc.args[*n:]
	}
}

// redigoScriptCtor finds the redis.NewScript(keyCount, src) call that makes
// the script e: e itself, or the initializer of a variable of this package
// declared with one (var s = redis.NewScript(…), s := redis.NewScript(…)).
func redigoScriptCtor(pass *analysis.Pass, e ast.Expr) *ast.CallExpr {
	info := pass.TypesInfo
	isCtor := func(x ast.Expr) *ast.CallExpr {
		call, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok || len(call.Args) != 2 || call.Ellipsis.IsValid() {
			return nil
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok || fn.Pkg() == nil || redigoPaths[fn.Pkg().Path()] == "" || fn.Name() != "NewScript" || fn.Signature().Recv() != nil {
			return nil
		}
		return call
	}
	if c := isCtor(e); c != nil {
		return c
	}
	id := nameOf(ast.Unparen(e))
	if id == nil {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() != pass.Pkg {
		return nil
	}
	file := fileAt(pass, nil, v.Pos())
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, v.Pos(), v.Pos())
	for _, n := range path {
		switch n := n.(type) {
		case *ast.ValueSpec:
			if len(n.Names) != len(n.Values) {
				return nil
			}
			for i, name := range n.Names {
				if info.Defs[name] == v {
					return isCtor(n.Values[i])
				}
			}
			return nil
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE || len(n.Lhs) != len(n.Rhs) {
				return nil
			}
			for i, l := range n.Lhs {
				if lid, ok := l.(*ast.Ident); ok && info.Defs[lid] == v {
					return isCtor(n.Rhs[i])
				}
			}
			return nil
		}
	}
	return nil
}

func (redigo) scriptCtor(call *ast.CallExpr, fn *types.Func) (ast.Expr, bool) {
	if fn.Name() == "NewScript" && fn.Signature().Recv() == nil && len(call.Args) == 2 {
		return call.Args[1], true
	}
	return nil, false
}

// --- scopes: MULTI … EXEC and Send … Flush/Do on a connection ---

// connState is what a connection has queued at some point of a function.
type connState struct {
	tx     *ast.CallExpr // the MULTI of the open transaction
	txConn ast.Expr
	pipe   *ast.CallExpr // the first Send of the batch not sent yet
	watch  bool          // a WATCH is in effect
}

// step advances s past the call rc.
func (s *connState) step(rc *redigoCall, call *ast.CallExpr) {
	if rc.reset {
		*s = connState{}
		return
	}
	if rc.flush {
		s.pipe = nil
		return
	}
	switch rc.name {
	case "MULTI":
		if s.tx == nil {
			s.tx, s.txConn = call, rc.conn
		}
	case "EXEC", "DISCARD":
		s.tx, s.txConn, s.watch = nil, nil, false
	case "WATCH":
		s.watch = true
	case "UNWATCH":
		s.watch = false
	}
	switch {
	case !rc.send:
		s.pipe = nil // Do sends what was queued and reads every reply
	case s.tx == nil && s.pipe == nil && rc.name != "EXEC" && rc.name != "DISCARD":
		s.pipe = call
	}
}

// redigoFuncBody returns the body of the innermost function declaration or
// literal around pos.
func redigoFuncBody(pass *analysis.Pass, pos token.Pos) *ast.BlockStmt {
	file := fileAt(pass, nil, pos)
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, pos, pos)
	for _, n := range path {
		switch n := n.(type) {
		case *ast.FuncDecl:
			return n.Body
		case *ast.FuncLit:
			return n.Body
		}
	}
	return nil
}

// stateAt returns the state of the connection conn just before the call
// at, from the calls before it on the same connection (keyid.Same) in the
// same function, in source order. Function literals inside are skipped
// (they run at another time), and so are deferred and go calls, and
// branches that end in a return without reaching at (if err != nil {
// c.Do("UNWATCH"); return err }).
func stateAt(pass *analysis.Pass, at *ast.CallExpr, conn ast.Expr) connState {
	var s connState
	info := pass.TypesInfo
	body := redigoFuncBody(pass, at.Pos())
	if body == nil {
		return s
	}
	returns := func(list []ast.Stmt) bool {
		if len(list) == 0 {
			return false
		}
		_, ok := list[len(list)-1].(*ast.ReturnStmt)
		return ok
	}
	sc := keyid.BodyScope(info, body)
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= at.Pos() {
			return false
		}
		before := n.End() <= at.Pos()
		switch n := n.(type) {
		case *ast.FuncLit, *ast.DeferStmt, *ast.GoStmt:
			return false
		case *ast.BlockStmt:
			return !before || n == body || !returns(n.List)
		case *ast.CaseClause:
			return !before || !returns(n.Body)
		case *ast.CommClause:
			return !before || !returns(n.Body)
		case *ast.CallExpr:
			if n.End() > at.Pos() {
				return true // a call around this one: redis.String(c.Do(…))
			}
			if rc, ok := parseRedigo(info, n); ok && sc.Same(rc.conn, conn) {
				s.step(rc, n)
			}
		}
		return true
	})
	return s
}

// connScope is the scope of the command rc sent by call, from the
// commands before it on its connection: in a transaction between MULTI
// and EXEC/DISCARD; in a pipeline when queued by Send (the batch opened
// by the first Send since the connection last sent), or when a Do sends
// it together with earlier Sends; otherwise direct. InWatch is set while
// a WATCH is in effect.
//
// A connection that is a parameter of the function, on which the
// function only queues commands (handedConn), is the caller's batch: its
// pipeline scope is Param.
func connScope(pass *analysis.Pass, call *ast.CallExpr, rc *redigoCall) Scope {
	s := stateAt(pass, call, rc.conn)
	switch {
	case s.tx != nil:
		return Scope{Kind: Tx, Node: s.tx, Client: s.txConn, InWatch: s.watch}
	case s.pipe != nil:
		return Scope{Kind: Pipeline, Node: s.pipe, Client: rc.conn, Param: handedConn(pass, call, rc.conn), InWatch: s.watch}
	case rc.send:
		return Scope{Kind: Pipeline, Node: call, Client: rc.conn, Param: handedConn(pass, call, rc.conn), InWatch: s.watch}
	}
	return Scope{InWatch: s.watch}
}

// handedConn reports whether conn, used by call, is a parameter of the
// function declaration around call that the function never assigns and
// only queues commands on (Send): no Do, Flush, Receive or Close on it,
// and no MULTI or EXEC (stateAt would have seen a MULTI before call).
// What it queues runs in its caller's batch.
func handedConn(pass *analysis.Pass, call *ast.CallExpr, conn ast.Expr) bool {
	info := pass.TypesInfo
	id, ok := ast.Unparen(conn).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return false
	}
	file := fileAt(pass, nil, call.Pos())
	if file == nil {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.Pos())
	var decl *ast.FuncDecl
	for _, n := range path {
		if _, ok := n.(*ast.FuncLit); ok {
			return false // run at another time, or not at all
		}
		if d, ok := n.(*ast.FuncDecl); ok {
			decl = d
			break
		}
	}
	if decl == nil || decl.Body == nil || v.Pos() < decl.Type.Params.Pos() || v.Pos() >= decl.Type.Params.End() ||
		astx.AssignedIn(info, decl.Body, v) {
		return false
	}
	only := true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || !only {
			return only
		}
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
			if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[x] == v && sel.Sel.Name != "Send" {
				only = false // Do, Flush, Receive, Close, …
			}
		}
		if rc, ok := parseRedigo(info, c); ok {
			x, _ := ast.Unparen(rc.conn).(*ast.Ident)
			switch {
			case !rc.send && x != nil && info.Uses[x] == v:
				only = false // redis.DoContext(c, …), s.Do(c, …)
			case rc.name == "MULTI" || rc.name == "EXEC" || rc.name == "DISCARD":
				only = false
			}
		}
		return only
	})
	return only
}

// argScope is the scope of what a helper called at call queues on the
// redigo connection arg: the transaction or pipeline open on arg there,
// or a pipeline of its own, which is the caller's caller's when arg is
// itself handed to the caller (connScope).
func (redigo) argScope(pass *analysis.Pass, call *ast.CallExpr, arg ast.Expr) (Scope, bool) {
	t := types.Unalias(pass.TypesInfo.TypeOf(arg))
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || redigoPaths[n.Obj().Pkg().Path()] == "" {
		return Scope{}, false
	}
	return connScope(pass, call, &redigoCall{conn: arg, send: true}), true
}

// connFlush records the calls that end a batch and whose reply stands for
// the batch's replies: Do("EXEC") or Do("DISCARD") of an open transaction
// (EXEC's reply lists the queued commands' replies), and Do("") sending a
// pipeline (it returns the last reply, after reading every pending one).
// A batch read reply by reply (Flush, then Receive for each command, or
// Send("EXEC")) records no flush: that code counts the commands.
func (redigo) connFlush(pass *analysis.Pass, call *ast.CallExpr) (Scope, bool) {
	rc, ok := parseRedigo(pass.TypesInfo, call)
	if !ok || rc.send || rc.script != nil || !rc.named {
		return Scope{}, false
	}
	switch rc.name {
	case "EXEC", "DISCARD":
		if s := stateAt(pass, call, rc.conn); s.tx != nil {
			return Scope{Kind: Tx, Node: s.tx, Client: s.txConn, InWatch: s.watch}, true
		}
	case "":
		if s := stateAt(pass, call, rc.conn); s.tx == nil && s.pipe != nil {
			return Scope{Kind: Pipeline, Node: s.pipe, Client: rc.conn}, true
		}
	}
	return Scope{}, false
}

// --- the TTL moved into an acquire (LV101, LV102) ---

// withTTL makes the acquire o carry ttl (source text in unit, from an
// EXPIRE or PEXPIRE): SETNX k v becomes SET k v NX EX ttl (PX for
// milliseconds), and SET k v NX gains EX ttl. SETNX replies 1 or 0 and SET
// NX replies OK or nil, so a SETNX is rewritten only when its reply is not
// read here: it is dropped, or it is queued (Send, or Do inside MULTI,
// whose reply is QUEUED) and read from EXEC's reply, which LV102 requires
// nobody reads; or it is read through redis.Bool in an assignment, which
// becomes a redis.String read whose nil reply is cleared (keepBusyFalse),
// so that busy stays (false, nil); or it is read as a value alone that
// only tests use, which then test the redis.String read for "OK"
// (setnxReadAsString).
func (r redigo) withTTL(pass *analysis.Pass, o *Op, ttl string, unit Unit) ([]analysis.TextEdit, bool) {
	edits, why := r.withTTLWhy(pass, o, ttl, unit)
	return edits, why == ""
}

// withTTLWhy is withTTL, saying why it has no rewrite ("" when it has).
func (redigo) withTTLWhy(pass *analysis.Pass, o *Op, ttl string, unit Unit) ([]analysis.TextEdit, string) {
	const cant = "can't rewrite this command"
	info := pass.TypesInfo
	opt := map[Unit]string{Seconds: "EX", Millis: "PX"}[unit]
	if o.Kind != Acquire || opt == "" {
		return nil, "the TTL's unit is not seconds or milliseconds"
	}
	rc, ok := redigoOf(info, o)
	if !ok || rc.script != nil || rc.spread {
		return nil, cant
	}
	switch o.Method {
	case "SETNX":
		if len(rc.args) != 2 {
			return nil, cant
		}
		edits := []analysis.TextEdit{
			fixes.Replace(rc.cmd, `"SET"`),
			{Pos: rc.args[1].End(), End: rc.args[1].End(), NewText: fmt.Appendf(nil, `, "NX", %q, %s`, opt, ttl)},
		}
		if rc.send || o.Scope.Kind == Tx || replyDropped(o.Cursor) {
			return edits, ""
		}
		const readWhy = "the SETNX's reply, 1 or 0, is read, and SET NX replies OK or nil"
		// Read here: through redis.Bool, the reply 1/0 of SETNX is
		// (true, nil) / (false, nil); SET NX replies OK or nil, which
		// redis.String reads as ("OK", nil) / ("", redis.ErrNil).
		out, ok := redigo{}.outcome(info, o)
		if !ok {
			return nil, readWhy
		}
		pkg, ok := ast.Unparen(out.Accessor.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, readWhy
		}
		read, ok := keepBusyFalse(pass, out, busyRead{
			from: "Bool", to: "String", pair: true,
			isNil: func(e string) string { return e + " == " + fixes.Text(pass.Fset, pkg.X) + ".ErrNil" },
		})
		if !ok {
			// v, _ := redis.Int(…) read only by tests of v.
			if read, ok = setnxReadAsString(pass, o, out); !ok {
				return nil, "the SETNX's reply, 1 or 0, is read in a way SET NX's, OK or nil, cannot stand in for"
			}
		}
		return append(edits, read...), ""
	case "SET":
		so := positionalOpts(info, commands["SET"], rc.args[2:])
		if so.keepTTL || so.unknown || so.ttl != nil || !so.nx {
			return nil, cant
		}
		last := rc.args[len(rc.args)-1]
		return []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: fmt.Appendf(nil, `, %q, %s`, opt, ttl)}}, ""
	}
	return nil, cant
}

// replyDropped reports whether the value a call returns is not kept: the
// call is a statement, or its first result goes to _.
func replyDropped(cur inspector.Cursor) bool {
	switch p := cur.Parent().Node().(type) {
	case *ast.ExprStmt, *ast.DeferStmt, *ast.GoStmt:
		return true
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || len(p.Lhs) == 0 {
			return false
		}
		id, ok := p.Lhs[0].(*ast.Ident)
		return ok && id.Name == "_"
	case *ast.ValueSpec:
		return len(p.Values) == 1 && len(p.Names) > 0 && p.Names[0].Name == "_"
	}
	return false
}

// --- replies ---

// redigoReader returns the cursor of the expression that yields the reply
// of the call at cur, a conversion redis.X(c.Do(…)) around it or the call
// itself, and the conversion's name ("" for none). ok is false when the
// call's results are passed to another function.
func redigoReader(info *types.Info, cur inspector.Cursor) (inspector.Cursor, string, bool) {
	call := cur.Node().(*ast.CallExpr)
	p, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok || len(p.Args) != 1 || p.Args[0] != call {
		return cur, "", true
	}
	fn, ok := typeutil.Callee(info, p).(*types.Func)
	if !ok || fn.Pkg() == nil || redigoPaths[fn.Pkg().Path()] == "" || fn.Signature().Recv() != nil {
		return cur, "", false
	}
	return cur.Parent(), fn.Name(), true
}

// reply: the variable the value is assigned to, through a conversion
// (v, err := redis.String(c.Do("GET", k))) or not. A GET's raw value (a
// []byte in an interface) equals no string, so it is not offered.
func (redigo) reply(info *types.Info, o *Op) (ast.Expr, *types.Var) {
	rcur, conv, ok := redigoReader(info, o.Cursor)
	if !ok || conv == "" && o.Kind == Get {
		return nil, nil
	}
	return nil, pairFirst(info, rcur.Parent().Node())
}

// --- acquire outcomes (LV105) ---

// outcome: SET NX replies the status "OK" when it set the key and nil when
// the key is held; SETNX replies 1 or 0. How busy shows depends on the
// conversion the reply goes through:
//
//	SET NX, raw reply            BusyNil: nil, nil when held
//	SET NX, String/Bytes         BusyErr: "", redis.ErrNil when held
//	SET NX, Bool/Int/Int64/…     BusyNever: "OK" is not a number or a
//	                             bool, so the conversion fails whenever
//	                             the key was set
//	SETNX, Bool                  BusyFalse
//	SETNX, Int/Int64/Uint64      BusyZero
//	SETNX, raw reply             BusyZero, but only a dropped reply or an
//	                             error-only read is described (the value is
//	                             an int64 in an interface, and comparing it
//	                             with 1 is always false)
//	SETNX, String/Bytes/Float64  BusyNever: they reject an integer
//
// A queued SET (Send, or Do in a transaction) has no reply here.
func (redigo) outcome(info *types.Info, o *Op) (Outcome, bool) {
	if o.Kind != Acquire || o.Scope.Kind != Direct {
		return Outcome{}, false
	}
	rc, ok := redigoOf(info, o)
	if !ok || rc.send || rc.script != nil {
		return Outcome{}, false
	}
	set := o.Method == "SET"
	if set && positionalOpts(info, commands["SET"], rc.args[2:]).get {
		return Outcome{}, false // SET NX GET replies the old value
	}
	out := Outcome{Expr: o.Call, ExprCursor: o.Cursor, Accessor: o.Call}
	rcur, conv, ok := redigoReader(info, o.Cursor)
	if !ok {
		return out, true // passed on: ReadOther
	}
	if conv != "" {
		out.Accessor = rcur.Node().(*ast.CallExpr)
		out.Expr, out.ExprCursor = out.Accessor, rcur
	}
	raw := conv == ""
	if o.Method == "INCR" {
		if conv != "Int" && conv != "Int64" && conv != "Uint64" {
			return out, true // not followed
		}
		out.Busy = BusyCount
		return shapeRead(out, readPair), true
	}
	switch {
	case set && raw:
		out.Busy = BusyNil
	case set && (conv == "String" || conv == "Bytes"):
		out.Busy = BusyErr
	case set && (conv == "Bool" || conv == "Int" || conv == "Int64" || conv == "Uint64" || conv == "Float64"):
		out.Busy = BusyNever
	case !set && conv == "Bool":
		out.Busy = BusyFalse
	case !set && (raw || conv == "Int" || conv == "Int64" || conv == "Uint64"):
		out.Busy = BusyZero
	case !set && (conv == "String" || conv == "Bytes" || conv == "Float64"):
		out.Busy = BusyNever
	default:
		return out, true // another conversion: not followed
	}
	out = shapeRead(out, readPair)
	if raw && !set && (out.Read == ReadValue || out.Read == ReadBoth) {
		out.Read, out.Value, out.Err, out.Stmt = ReadOther, nil, nil, nil
	}
	return out, true
}

// busyErr: redis.ErrNil, what the conversions return for a nil reply.
func (redigo) busyErr(info *types.Info, _ *Op, e ast.Expr) bool {
	return isPkgVar(info, e, "ErrNil", func(path string) bool { return redigoPaths[path] != "" })
}

// readBoth: `_, err := read` becomes `name, err := read`.
func (redigo) readBoth(out Outcome, name string) ([]analysis.TextEdit, bool) {
	return readBothVia(out, name, "", "")
}

// --- owner-checked release (LV201, LV202) ---

// unlockDoc is the comment on a release script variable a fix declares.
const unlockDoc = `unlockScript deletes a lock only while it still holds the token it was
acquired with (KEYS[1] the lock key, ARGV[1] the token).`

// releases rewrites DEL key into an owner-checked release. DEL, DELEX and
// the compare-and-delete script all reply an integer (1 deleted, 0 not)
// through the same results as the call they replace, so the code around
// it keeps compiling and reads the same meaning:
//
//	c.Do("DEL", key)        → c.Do("DELEX", key, "IFEQ", token)  (Redis ≥ 8.4)
//	c.Do("DEL", key)        → unlockScript.Do(c, key, token)
//	c.Send("DEL", key)      → unlockScript.Send(c, key, token)   (EVAL: no NOSCRIPT in a batch)
//	c.DoContext(ctx, …)     → unlockScript.DoContext(ctx, c, key, token)
//
// DoWithTimeout has no script counterpart: DELEX only.
func (redigo) releases(pass *analysis.Pass, o *Op, tok string, opts ReleaseOptions) []Release {
	rc, ok := redigoOf(pass.TypesInfo, o)
	if !ok || rc.script != nil || rc.spread || len(rc.args) != 1 {
		return nil
	}
	switch o.Method {
	case "DEL", "UNLINK", "DELEX":
		// They reply the number of keys deleted, as the rewrites do; a
		// delete that replies something else (GETDEL: the value) is not
		// rewritten.
	default:
		return nil
	}
	var out []Release
	if opts.DelEx && !opts.Prefix {
		out = append(out, Release{Kind: ReleaseDelEx, Edits: []analysis.TextEdit{
			fixes.Replace(rc.cmd, `"DELEX"`),
			{Pos: rc.args[0].End(), End: rc.args[0].End(), NewText: []byte(`, "IFEQ", ` + tok)},
		}})
	}
	spec := unlockSpec(opts)
	plan := func(pkg *types.Package) (string, []analysis.TextEdit, bool) {
		return NewScriptVars(pass, o.res).varArgs(o.Call.Pos(), pkg, "NewScript", redigo{}.scriptCtorArgs(), spec.name, spec.doc, spec.src, spec.like)
	}
	if edits, ok := redigoRun(pass, o, rc, plan, []string{fixes.Text(pass.Fset, rc.args[0])}, []string{tok}); ok {
		out = append(out, Release{Kind: ReleaseScript, Edits: edits})
	}
	return out
}

// redigoRun writes the run of a script variable (named by plan, which may
// also declare it) in place of the command o sent by rc, with keys and
// args (source text): Do, Send or DoContext as rc was sent.
func redigoRun(pass *analysis.Pass, o *Op, rc *redigoCall, plan func(*types.Package) (string, []analysis.TextEdit, bool), keys, args []string) ([]analysis.TextEdit, bool) {
	info := pass.TypesInfo
	if rc.method == "DoWithTimeout" || rc.fwd {
		return nil, false // no script method takes a forwarder's wrapper
	}
	pkg := rc.fn.Pkg()
	ctor, ok := pkg.Scope().Lookup("NewScript").(*types.Func)
	if !ok || ctor.Signature().Results().Len() != 1 {
		return nil, false
	}
	method := "Do"
	switch {
	case rc.send:
		method = "Send"
	case rc.ctx != nil:
		method = "DoContext"
	}
	m := methodOf(ctor.Signature().Results().At(0).Type(), pkg, method)
	if m == nil {
		return nil, false
	}
	connParam := 0
	if rc.ctx != nil {
		connParam = 1
	}
	if m.Signature().Params().Len() <= connParam || !types.AssignableTo(info.TypeOf(rc.conn), m.Signature().Params().At(connParam).Type()) ||
		!sameResults(rc.fn.Signature(), m.Signature()) {
		return nil, false
	}
	v, decl, ok := plan(pkg)
	if !ok {
		return nil, false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s.%s(", v, method)
	if rc.ctx != nil {
		b.WriteString(fixes.Text(pass.Fset, rc.ctx) + ", ")
	}
	b.WriteString(fixes.Text(pass.Fset, rc.conn))
	for _, a := range append(append([]string(nil), keys...), args...) {
		b.WriteString(", " + a)
	}
	b.WriteString(")")
	return append([]analysis.TextEdit{fixes.Replace(o.Call, b.String())}, decl...), true
}

// --- owner-checked renewal (LV203) ---

// renewable: EXPIRE and PEXPIRE, alone or with XX (a held lock has a TTL),
// the option words written as string literals.
func (redigo) renewable(o *Op) bool {
	c := commands[o.Method]
	if c == nil || c.kind != Expire {
		return false
	}
	var words []ast.Expr
	for i, a := range o.Call.Args {
		if a == o.TTL {
			words = o.Call.Args[i+1:]
		}
	}
	var opts cmdOpts
	for _, e := range words {
		lit, ok := ast.Unparen(e).(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return false
		}
		s, err := strconv.Unquote(lit.Value)
		opt, known := c.opts[strings.ToUpper(s)]
		if err != nil || !known {
			return false
		}
		opts.apply(opt, nil)
	}
	return c.renewable(opts)
}

func (redigo) scriptCtorFor(pass *analysis.Pass, o *Op) (*types.Package, string, bool) {
	return ctorIn(pass, o, "NewScript", anyPath)
}

// scriptCtorArgs: redis.NewScript takes the key count first, and
// lockvet's canonical scripts take one key.
func (redigo) scriptCtorArgs() []string { return []string{"1"} }

// ttlArg: the renewal script takes milliseconds; EXPIRE's whole seconds
// are multiplied by 1000, PEXPIRE's milliseconds pass as they are. A TTL
// that is not an integer (a time.Duration, sent as "30s": LV104's finding)
// or a constant below 1 gets no rewrite; a string constant of digits is
// its number.
func (redigo) ttlArg(pass *analysis.Pass, o *Op) (string, []analysis.TextEdit, bool) {
	info := pass.TypesInfo
	if o.TTL == nil {
		return "", nil, false
	}
	if sp := constval.String(info, o.TTL); sp != nil {
		// A string constant of digits ("5000"): Redis reads it as the
		// number it spells.
		n, err := strconv.ParseInt(*sp, 10, 64)
		switch {
		case err != nil || n < 1:
			return "", nil, false
		case o.TTLUnit == Millis:
			return strconv.FormatInt(n, 10), nil, true
		case o.TTLUnit == Seconds:
			return strconv.FormatInt(n*1000, 10), nil, true
		}
		return "", nil, false
	}
	if !integer(info, o.TTL) {
		return "", nil, false
	}
	text := fixes.Text(pass.Fset, o.TTL)
	v := constval.Int(info, o.TTL)
	if v != nil && *v < 1 {
		return "", nil, false
	}
	switch o.TTLUnit {
	case Millis:
		return text, nil, true
	case Seconds:
		if _, lit := ast.Unparen(o.TTL).(*ast.BasicLit); lit && v != nil {
			return strconv.FormatInt(*v*1000, 10), nil, true
		}
		return operand(text, o.TTL, true) + "*1000", nil, true
	}
	return "", nil, false
}

// integer reports whether e is of an integer type other than
// time.Duration, or an untyped integer constant.
func integer(info *types.Info, e ast.Expr) bool {
	t := info.TypeOf(e)
	if t == nil || isDuration(t) {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// runScript writes v.Do(c, keys…, args…) (Send, DoContext likewise) in
// place of the command o. EXPIRE and the renewal script both reply 1 or 0
// through the same results, so every use of the reply still holds.
func (redigo) runScript(pass *analysis.Pass, o *Op, v string, keys, args []string) ([]analysis.TextEdit, bool) {
	rc, ok := redigoOf(pass.TypesInfo, o)
	if !ok || rc.script != nil {
		return nil, false
	}
	plan := func(*types.Package) (string, []analysis.TextEdit, bool) { return v, nil, true }
	return redigoRun(pass, o, rc, plan, keys, args)
}

// advice: SETNX takes no TTL; the one-step acquire is SET with NX and PX.
func (redigo) advice(o *Op, a Advice) string {
	if a == AdviseInTx && o.Scope.InWatch && o.Scope.Kind == Pipeline {
		return `WATCH does not guard commands sent without MULTI; Send("MULTI") first, Do("EXEC") last`
	}
	if a != AdviseTTL {
		return ""
	}
	switch o.Method {
	case "SETNX":
		return `use Do("SET", k, v, "NX", "PX", ms)`
	case "SET":
		return `add "PX", ms to the SET`
	}
	return ""
}
