package redisops

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
)

// Forwarders of redigo's generic call. A wrapper hands the command and
// its arguments to a connection as they are, adding a pool, retries or
// logging around the call:
//
//	func (c *Cache) SafeDo(cmd string, args ...any) (any, error) {
//		conn := c.pool.Get()
//		defer conn.Close()
//		return conn.Do(cmd, args...)
//	}
//
// A function is a forwarder of Do (of Send) when, anywhere in its body
// (a closure it runs included), it passes its string parameter as the
// command name and its variadic parameter spread (args...) to a redigo
// connection's Do (Send), or to another forwarder's, assigns neither, and
// returns what that call returns (the same result types). A call of a
// forwarder whose command name is a constant, c.SafeDo("PEXPIRE", key,
// 30000), is that command, read from the command table as redigo's
// c.Do is, with redigo's outcomes and replies (redis.String(c.SafeDo(
// "SET", k, v, "NX", "PX", ms)) is BusyErr). A forwarder of Send that
// also sends (Flush, Receive or Do on a connection) runs its command
// directly; one that only queues it queues it in a batch its call does
// not show. The fixes that rewrite the call in place (a TTL added to the
// SET, DELEX) apply; those that run a script on the connection do not
// (the wrapper is no connection).
//
// Forwarders are found in the call walk (builder.call), and their calls
// in the package made into ops after it (forwardCalls); a forwarder that
// is exported is a fact (Summary.Forward), so its calls in other
// packages are ops in their call walk. INCR through a forwarder is not
// read as a lock.

// forwarderOf records, when the call at cur is redigo's Do or Send with
// a command name that is not a constant, the function around it as a
// forwarder if it is one.
func (b *builder) forwarderOf(cur inspector.Cursor) {
	rc, ok := parseRedigo(b.pass.TypesInfo, cur.Node().(*ast.CallExpr))
	if !ok || rc.named || rc.script != nil || rc.method != "Do" && rc.method != "Send" {
		return
	}
	b.noteForwarder(cur, rc.cmd, rc.args, rc.spread, rc.method, rc.fn.Signature().Results(), false)
}

// noteForwarder records the function declaration around cur as a
// forwarder of verb (Do or Send) when the call at cur passes it the
// function's string parameter cmd and its variadic parameter spread
// (rest), and returns results. sent: the forwarder called sends what
// it queues.
func (b *builder) noteForwarder(cur inspector.Cursor, cmd ast.Expr, rest []ast.Expr, spread bool, verb string, results *types.Tuple, sent bool) {
	if !spread || len(rest) != 1 {
		return
	}
	var decl *ast.FuncDecl
	for c := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		decl = c.Node().(*ast.FuncDecl)
	}
	info := b.pass.TypesInfo
	if decl == nil || decl.Body == nil || astx.InTest(b.pass.Fset, decl.Pos()) {
		return
	}
	fn, ok := info.Defs[decl.Name].(*types.Func)
	if !ok || b.forwarders[fn] != nil {
		return
	}
	sig := fn.Signature()
	n := sig.Params().Len()
	if !sig.Variadic() || !types.Identical(sig.Results(), results) || paramOf(info, decl, rest[0]) != sig.Params().At(n-1) {
		return
	}
	c := paramOf(info, decl, cmd)
	i := -1
	for j := range n - 1 {
		if sig.Params().At(j) == c {
			i = j
		}
	}
	if i < 0 || !isString(c.Type()) {
		return
	}
	if verb == "Send" && !sent {
		sent = sendsItself(info, decl)
	}
	sum := &Summary{Func: fullName(fn), Name: fn.Name(), Forward: verb, Cmd: i, Sent: sent,
		Key: -1, Value: -1, TTL: -1, Batch: -1, Where: where(b.pass.Fset, cur.Node().Pos()), local: true}
	if b.forwarders == nil {
		b.forwarders = map[*types.Func]*Summary{}
	}
	b.forwarders[fn] = sum
	b.newForwarders = true
}

// paramOf is the parameter of decl that e names, never assigned in its
// body, or nil.
func paramOf(info *types.Info, decl *ast.FuncDecl, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.Pos() < decl.Type.Params.Pos() || v.Pos() >= decl.Type.Params.End() || astx.AssignedIn(info, decl.Body, v) {
		return nil
	}
	return v
}

// sendsItself reports whether decl's body sends what is queued on a
// redigo connection: a Flush, Receive or Do on one.
func sendsItself(info *types.Info, decl *ast.FuncDecl) bool {
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			fn, ok := typeutil.Callee(info, call).(*types.Func)
			if ok && fn.Pkg() != nil && redigoPaths[fn.Pkg().Path()] != "" {
				switch fn.Name() {
				case "Flush", "Receive", "Do", "DoContext", "DoWithTimeout":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// forwardCalls makes the ops of the package's calls of its forwarders,
// round after round while calls that forward their own parameters make
// new ones (at most MaxDepth rounds). It runs only when the call walk
// found a forwarder.
func (b *builder) forwardCalls() {
	for round := 0; b.newForwarders && round <= MaxDepth; round++ {
		b.newForwarders = false
		for cur := range b.res.Inspector.Root().Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			if b.res.byPos[call] != nil {
				continue
			}
			fn := typeutil.StaticCallee(b.pass.TypesInfo, call)
			if fn == nil || b.forwarders[fn.Origin()] == nil {
				continue
			}
			var recv ast.Expr
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				recv = sel.X
			}
			b.forwardOp(cur, fn, recv, b.forwarders[fn.Origin()])
		}
	}
	b.res.sortOps(b.pass.Files)
}

// forwardOp adds the op of the call at cur of fn, a forwarder (sum), on
// recv: the command its constant name says. A name that is not a
// constant may make the function around the call a forwarder itself.
func (b *builder) forwardOp(cur inspector.Cursor, fn *types.Func, recv ast.Expr, sum *Summary) {
	call := cur.Node().(*ast.CallExpr)
	info := b.pass.TypesInfo
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodExpr {
			return
		}
	}
	n := fn.Signature().Params().Len()
	if sum.Cmd >= len(call.Args) || len(call.Args) < n-1 {
		return
	}
	rest, spread := call.Args[n-1:], call.Ellipsis.IsValid()
	name := constval.String(info, call.Args[sum.Cmd])
	if name == nil {
		b.noteForwarder(cur, call.Args[sum.Cmd], rest, spread, sum.Forward, fn.Signature().Results(), sum.Sent)
		return
	}
	rc := &redigoCall{fn: fn, conn: recv, cmd: call.Args[sum.Cmd], name: strings.ToUpper(*name), named: true,
		args: rest, spread: spread, send: sum.Forward == "Send", method: sum.Forward, fwd: true}
	if rc.name == "INCR" {
		return
	}
	op := &Op{Call: call, Client: "redigo", Method: rc.name, Recv: recv, fwd: rc}
	if positional(info, op, rc.name, rest, spread) == nil {
		return
	}
	if rc.send && !sum.Sent {
		op.Scope = Scope{Kind: Pipeline} // queued in a batch the call does not show
	}
	b.add(cur, op, redigo{}, recv)
}
