package redisops

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

var _ txLifter = redigo{}

// TxAlone returns the edits that take the acquire o and the expire e out
// of the transaction that queues them together and whose replies the code
// reads (LV102), as one acquire that carries the TTL (ttl, source text),
// or why not in a few words ("" when the client has no such rewrite).
func (o *Op) TxAlone(pass *analysis.Pass, e *Op, ttl string) ([]analysis.TextEdit, string, bool) {
	if l, ok := o.adapter.(txLifter); ok {
		return l.txAlone(pass, o, e, ttl)
	}
	return nil, "", false
}

// txAlone: a transaction that queues only SETNX and EXPIRE and whose
// reply list is read for the SETNX reply alone, by index,
//
//	c.Send("MULTI")
//	c.Send("SETNX", key, val)
//	c.Send("EXPIRE", key, ttl)
//	arr, err := redis.Values(c.Do("EXEC"))
//	if err != nil {
//		…
//		return
//	}
//	v, _ := redis.Int(arr[0], nil)
//	if v == 0 { … busy … }
//
// becomes one SET NX with the TTL, whose reply is the lock's answer:
//
//	v, err := c.Do("SET", key, val, "NX", "EX", ttl)
//	if err != nil {
//		…
//		return
//	}
//	if v == nil { … busy … }
//
// Past the error check (which must leave), the reply is "OK" when the key
// was set and nil when it was held, so each test of v (replyTests) tests
// it against nil. A later assignment to arr (arr, err = …) becomes its
// declaration. Every other shape is left alone, with the reason.
func (redigo) txAlone(pass *analysis.Pass, a, e *Op, ttl string) ([]analysis.TextEdit, string, bool) {
	info := pass.TypesInfo
	if a.Scope.Kind != Tx || a.Func == nil || a.res == nil {
		return nil, "", false
	}
	ra, ok1 := redigoOf(info, a)
	re, ok2 := redigoOf(info, e)
	if !ok1 || !ok2 || ra.script != nil || ra.spread || ra.fwd || ra.ctx != nil || re.fwd {
		return nil, "", false
	}
	const other = "the transaction's replies are read in another way"
	if a.Scope.InWatch {
		return nil, "the transaction runs under WATCH", false
	}
	opt := map[Unit]string{Seconds: "EX", Millis: "PX"}[e.TTLUnit]
	if opt == "" || e.TTL == nil || !integer(info, e.TTL) {
		return nil, "the TTL is not a whole number", false
	}
	if v := constval.Int(info, e.TTL); v != nil && *v < 1 {
		return nil, "", false
	}
	switch {
	case a.Method == "SETNX" && len(ra.args) == 2:
	case a.Method == "SET" && len(ra.args) == 3:
		// SET k v NX, the option alone.
		so := positionalOpts(info, commands["SET"], ra.args[2:])
		if !so.nx || so.unknown || so.keepTTL || so.ttl != nil || so.get {
			return nil, "", false
		}
	default:
		return nil, "", false
	}

	// The statements: MULTI, the two commands, EXEC, the error check,
	// one after the other in one list.
	var stmts []ast.Stmt
	j := -1
	for c := range a.Cursor.Enclosing() {
		if l := astx.StmtList(c.Node()); l != nil {
			stmts = l
			for i, s := range l {
				if es, ok := s.(*ast.ExprStmt); ok && ast.Unparen(es.X) == a.Scope.Node {
					j = i
				}
			}
			break
		}
	}
	const others = "the transaction queues other commands"
	if j < 0 || j+4 >= len(stmts) {
		return nil, others, false
	}
	queued := func(s ast.Stmt, o *Op) bool {
		es, ok := s.(*ast.ExprStmt)
		return ok && ast.Unparen(es.X) == o.Call
	}
	first := 0 // the SETNX reply's index in EXEC's reply
	switch {
	case queued(stmts[j+1], a) && queued(stmts[j+2], e):
	case queued(stmts[j+1], e) && queued(stmts[j+2], a):
		first = 1
	default:
		return nil, others, false
	}
	var exec *Flush
	for _, fl := range a.res.Flushes {
		if fl.Scope.Node == a.Scope.Node {
			if exec != nil {
				return nil, other, false
			}
			exec = fl
		}
	}
	if _, ok := stmts[j+3].(*ast.ExprStmt); ok {
		return nil, others, false
	}
	as, ok := stmts[j+3].(*ast.AssignStmt)
	if exec == nil || !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return nil, other, false
	}
	conv, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || len(conv.Args) != 1 || conv.Args[0] != exec.Call || redigoFunc(info, conv) != "Values" {
		return nil, other, false
	}
	arrID, _ := as.Lhs[0].(*ast.Ident)
	errID, _ := as.Lhs[1].(*ast.Ident)
	if arrID == nil || errID == nil || errID.Name == "_" {
		return nil, "the transaction's error is not checked", false
	}
	arr, _ := info.Defs[arrID].(*types.Var)
	errVar, _ := info.ObjectOf(errID).(*types.Var)
	if arr == nil || errVar == nil {
		return nil, other, false
	}
	if !leavesOnErr(info, stmts[j+4], errVar) {
		return nil, "the transaction's error is not checked", false
	}

	// arr's uses: the read of the SETNX reply, then nothing until a
	// statement of the list assigns arr again.
	reassign := len(stmts)
	for k := j + 5; k < len(stmts); k++ {
		if s, ok := stmts[k].(*ast.AssignStmt); ok && lhsHas(info, s, arr) {
			reassign = k
			break
		}
	}
	var readAt []*ast.Ident
	ast.Inspect(a.Func.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if ok && info.Uses[id] == arr {
			if reassign == len(stmts) || id.Pos() < stmts[reassign].Pos() {
				readAt = append(readAt, id)
			} else if id.Pos() < stmts[reassign].End() && !lhsIdent(stmts[reassign].(*ast.AssignStmt), id) {
				readAt = append(readAt, id) // the old value read by the reassignment
			}
		}
		return true
	})
	switch {
	case len(readAt) > 1:
		return nil, "the transaction's replies are read more than once", false
	case len(readAt) == 0:
		return nil, other, false
	}
	k := j + 5
	for k < reassign && !astx.Encloses(stmts[k], readAt[0]) {
		k++
	}
	if k == reassign {
		return nil, other, false
	}
	read, ok := stmts[k].(*ast.AssignStmt)
	if !ok || read.Tok != token.DEFINE || len(read.Lhs) != 2 || len(read.Rhs) != 1 || !isBlank(read.Lhs[1]) {
		return nil, other, false
	}
	rc, ok := read.Rhs[0].(*ast.CallExpr)
	if !ok || len(rc.Args) != 2 || !isNilExpr(info, rc.Args[1]) {
		return nil, other, false
	}
	isBool := false
	switch redigoFunc(info, rc) {
	case "Int", "Int64", "Uint64":
	case "Bool":
		isBool = true
	default:
		return nil, other, false
	}
	ix, ok := ast.Unparen(rc.Args[0]).(*ast.IndexExpr)
	if !ok || ast.Unparen(ix.X) != readAt[0] {
		return nil, other, false
	}
	if c := info.Types[ix.Index].Value; c == nil || c.Kind() != constant.Int || constant.Compare(c, token.NEQ, constant.MakeInt64(int64(first))) {
		return nil, "the EXPIRE's reply is read", false
	}
	vID, _ := read.Lhs[0].(*ast.Ident)
	if vID == nil {
		return nil, other, false
	}
	v, _ := info.Defs[vID].(*types.Var)
	if v == nil {
		return nil, other, false
	}
	// v is declared where the acquire is: no other v may be meant
	// between there and the read.
	clash := false
	ast.Inspect(a.Func.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == v.Name() && id != vID && id.Pos() >= stmts[j].Pos() && id.Pos() < read.Pos() {
			clash = true
		}
		return !clash
	})
	if clash {
		return nil, fmt.Sprintf("%s means something else before its read", v.Name()), false
	}
	name := vID.Name
	tests, ok := replyTests(pass, a.Func.Body, v, isBool, func(acquired bool) string {
		if acquired {
			return name + " != nil"
		}
		return name + " == nil"
	})
	if !ok {
		return nil, fmt.Sprintf("%s is used other than in tests", name), false
	}

	// A later assignment of arr declares it.
	var edits []analysis.TextEdit
	if reassign < len(stmts) {
		s := stmts[reassign].(*ast.AssignStmt)
		if s.Tok == token.ASSIGN {
			for _, l := range s.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					return nil, other, false
				}
				if lv, ok := info.Uses[id].(*types.Var); id.Name != "_" && (!ok || lv != arr && lv.Parent() != arr.Parent()) {
					return nil, other, false
				}
			}
			edits = append(edits, analysis.TextEdit{Pos: s.TokPos, End: s.TokPos + 1, NewText: []byte(":=")})
		}
	}

	// The acquire becomes the command sent alone; the rest goes.
	fun, ok := ast.Unparen(a.Call.Fun).(*ast.SelectorExpr)
	if !ok || ast.Unparen(fun.X) != ra.conn || (fun.Sel.Name != "Send" && fun.Sel.Name != "Do") {
		return nil, "", false
	}
	edits = append(edits,
		fixes.Replace(fun, fmt.Sprintf("%s, %s := %s.Do", name, errID.Name, fixes.Text(pass.Fset, ra.conn))),
		fixes.Replace(ra.cmd, `"SET"`),
	)
	last := ra.args[len(ra.args)-1]
	opts := fmt.Sprintf(`, %q, %s`, opt, ttl)
	if a.Method == "SETNX" {
		opts = `, "NX"` + opts
	}
	edits = append(edits, analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(opts)})
	expire := stmts[j+2]
	if first == 1 {
		expire = stmts[j+1]
	}
	for _, s := range []ast.Stmt{stmts[j], expire, stmts[j+3], read} {
		edits = append(edits, fixes.DeleteStmt(pass, s))
	}
	return append(edits, tests...), "", true
}

// redigoFunc names the redigo package function call calls, or "".
func redigoFunc(info *types.Info, call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || redigoPaths[fn.Pkg().Path()] == "" || fn.Signature().Recv() != nil {
		return ""
	}
	return fn.Name()
}

func isNilExpr(info *types.Info, e ast.Expr) bool {
	return info.Types[e].IsNil()
}

// leavesOnErr: s is `if err != nil { …; return }` (or break, continue,
// goto, panic at its end), with no init and no else.
func leavesOnErr(info *types.Info, s ast.Stmt, err *types.Var) bool {
	ifs, ok := s.(*ast.IfStmt)
	if !ok || ifs.Init != nil || ifs.Else != nil || len(ifs.Body.List) == 0 {
		return false
	}
	cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || cond.Op != token.NEQ {
		return false
	}
	id, ok := ast.Unparen(cond.X).(*ast.Ident)
	if !ok || info.Uses[id] != err || !isNilExpr(info, cond.Y) {
		return false
	}
	switch last := ifs.Body.List[len(ifs.Body.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := last.X.(*ast.CallExpr)
		if !ok {
			return false
		}
		b, ok := info.Uses[astx.IdentOf(call.Fun)].(*types.Builtin)
		return ok && b.Name() == "panic"
	}
	return false
}

// lhsHas reports whether s assigns v.
func lhsHas(info *types.Info, s *ast.AssignStmt, v *types.Var) bool {
	for _, l := range s.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
			return true
		}
	}
	return false
}

func lhsIdent(s *ast.AssignStmt, id *ast.Ident) bool {
	for _, l := range s.Lhs {
		if ast.Unparen(l) == id {
			return true
		}
	}
	return false
}
