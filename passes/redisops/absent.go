package redisops

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// A GET answers three ways: the value (found), nothing (the key is
// missing: go-redis' redis.Nil, redigo's nil reply or redis.ErrNil after
// a conversion, rueidis' IsRedisNil), or an error. This file says how the
// code around a GET tests for "missing", so that a check can see a write
// that runs only when the GET found nothing (a check-then-set claim)
// without knowing the client.

// Absence is what a condition says about the reply of a GET.
type Absence uint8

const (
	// NoAbsence: the condition does not test the reply for a missing key.
	NoAbsence Absence = iota
	// AbsentIfTrue: true exactly when the key was missing
	// (err == redis.Nil, errors.Is(err, redis.Nil), rueidis.IsRedisNil(err)).
	AbsentIfTrue
	// AbsentIfFalse: false exactly when the key was missing
	// (err != redis.Nil).
	AbsentIfFalse
	// FoundIfTrue: true exactly when the key was found: false when it was
	// missing or the command failed (err == nil).
	FoundIfTrue
	// FoundIfFalse: false exactly when the key was found: true when it
	// was missing or the command failed (err != nil; a go-redis value
	// compared with "", a redigo raw reply compared with nil).
	FoundIfFalse
)

// Missing reports whether a condition of this kind, known to be truth,
// says that the key was not found (missing, or, for the Found kinds, the
// command failed).
func (a Absence) Missing(truth bool) bool {
	switch a {
	case AbsentIfTrue, FoundIfFalse:
		return truth
	case AbsentIfFalse, FoundIfTrue:
		return !truth
	}
	return false
}

// Exact reports whether a condition of this kind, known to be truth,
// tells a missing key apart from a failed command: it says exactly
// missing (true, true) or exactly not missing (false, true).
func (a Absence) Exact(truth bool) (missing, ok bool) {
	switch a {
	case AbsentIfTrue:
		return truth, true
	case AbsentIfFalse:
		return !truth, true
	case FoundIfTrue:
		if truth {
			return false, true
		}
	case FoundIfFalse:
		if !truth {
			return false, true
		}
	}
	return false, false
}

// absentRead is where a GET's reply shows a missing key, as the code
// reads it: the error (an identifier, or the accessor call used in
// place), and the value when a zero value means missing: "" for a
// go-redis string value, nil for a redigo raw reply.
type absentRead struct {
	err   ast.Expr
	value ast.Expr
	stmt  ast.Node // the statement that reads the reply, or nil when read in place
}

// absentReader is implemented by adapters that know how a GET's reply
// says the key is missing.
type absentReader interface {
	absentRead(info *types.Info, o *Op) (absentRead, bool)
}

// goRedisGetReads are the accessors on a go-redis GET's command value.
var goRedisGetReads = map[string]readShape{
	"Err": readErrOnly, "Val": readValueOnly, "Result": readPair,
	"Int": readPair, "Int64": readPair, "Uint64": readPair, "Float64": readPair, "Float32": readPair, "Bool": readPair, "Bytes": readPair,
}

func (goRedis) absentRead(info *types.Info, o *Op) (absentRead, bool) {
	if o.Kind != Get || o.Method != "Get" {
		return absentRead{}, false
	}
	return goRedisAbsentRead(info, o)
}

// goRedisAbsentRead reads a GET's go-redis command value (Err, Val,
// Result and the typed readers).
func goRedisAbsentRead(info *types.Info, o *Op) (absentRead, bool) {
	out := readReply(info, Outcome{}, o, goRedisGetReads, isGoRedis)
	r := absentRead{err: out.Err, stmt: out.Stmt}
	if out.Accessor != nil {
		sel := out.Accessor.Fun.(*ast.SelectorExpr)
		if n := sel.Sel.Name; (n == "Val" || n == "Result") && out.Value != nil {
			r.value = out.Value
		}
	}
	return r, r.err != nil || r.value != nil
}

func (redigo) absentRead(info *types.Info, o *Op) (absentRead, bool) {
	if o.Kind != Get || o.Scope.Kind != Direct {
		return absentRead{}, false
	}
	rc, ok := redigoOf(info, o)
	if !ok || rc.send {
		return absentRead{}, false
	}
	rcur, conv, ok := redigoReader(info, o.Cursor)
	if !ok {
		return absentRead{}, false
	}
	out := shapeRead(Outcome{Expr: rcur.Node().(ast.Expr), ExprCursor: rcur}, readPair)
	r := absentRead{err: out.Err, stmt: out.Stmt}
	if conv == "" {
		// The raw reply is nil when the key is missing; the error is
		// nil then too.
		r.value, r.err = out.Value, nil
	}
	return r, r.err != nil || r.value != nil
}

func (r rueidisClient) absentRead(info *types.Info, o *Op) (absentRead, bool) {
	c, _ := r.chainOf(o)
	if o.Kind != Get || c == nil || !r.sentBy(o, "Do", "DoCache") {
		return absentRead{}, false
	}
	out := readReply(info, Outcome{}, o, rueidisReads, r.ours)
	return absentRead{err: out.Err, stmt: out.Stmt}, out.Err != nil
}

// AbsenceTest says what cond, a condition in o's function after o (a
// GET), tests about o's reply: see Absence. Only the reply as the code
// holds it counts: its error or value variable, not assigned again
// between o and cond, or the accessor call used in place in cond.
func (o *Op) AbsenceTest(info *types.Info, cond ast.Expr) Absence {
	ar, ok := o.adapter.(absentReader)
	if !ok || o.Func == nil {
		return NoAbsence
	}
	rd, ok := ar.absentRead(info, o)
	if !ok {
		return NoAbsence
	}
	is := func(e, of ast.Expr) bool {
		if of == nil {
			return false
		}
		e = ast.Unparen(e)
		if e == of {
			return true
		}
		id, ok := e.(*ast.Ident)
		ofID, ok2 := of.(*ast.Ident)
		if !ok || !ok2 {
			return false
		}
		v, ok := info.Uses[id].(*types.Var)
		return ok && v == info.ObjectOf(ofID) && id.Pos() > o.Call.End() &&
			!astx.AssignedBetween(info, o.Func.Body, v, o.Call.End(), id.Pos())
	}
	cond = ast.Unparen(cond)
	switch c := cond.(type) {
	case *ast.BinaryExpr:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return NoAbsence
		}
		for _, p := range [2][2]ast.Expr{{c.X, c.Y}, {c.Y, c.X}} {
			x, y := p[0], ast.Unparen(p[1])
			switch {
			case is(x, rd.err) && o.IsBusyErr(info, y):
				return pick(c.Op, AbsentIfTrue, AbsentIfFalse)
			case is(x, rd.err) && isNil(info, y):
				return pick(c.Op, FoundIfTrue, FoundIfFalse)
			case is(x, rd.value) && (isNil(info, y) || isEmptyString(info, y)):
				return pick(c.Op, FoundIfFalse, FoundIfTrue)
			}
		}
	case *ast.CallExpr:
		if e, ok := o.BusyTest(info, c); ok && is(e, rd.err) {
			return AbsentIfTrue
		}
		if errorsIs(info, c) && is(c.Args[0], rd.err) && o.IsBusyErr(info, ast.Unparen(c.Args[1])) {
			return AbsentIfTrue
		}
	}
	return NoAbsence
}

func pick(op token.Token, eq, neq Absence) Absence {
	if op == token.EQL {
		return eq
	}
	return neq
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

func isEmptyString(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.ExactString() == `""`
}

// errorsIs reports whether call is errors.Is(x, y).
func errorsIs(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && len(call.Args) == 2 && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "Is"
}

// ReplyUses lists the uses, after o (a GET) in o's function, of the
// variables that hold o's reply (its error and its value) until they are
// assigned again, and reports whether the reply is read in place
// instead (then there are none). ok is false when the reply is not read
// in a way AbsenceTest knows.
func (o *Op) ReplyUses(info *types.Info) (uses []*ast.Ident, inPlace bool, ok bool) {
	ar, isAR := o.adapter.(absentReader)
	if !isAR || o.Func == nil {
		return nil, false, false
	}
	rd, ok := ar.absentRead(info, o)
	if !ok {
		return nil, false, false
	}
	if rd.stmt == nil {
		return nil, true, true
	}
	for _, e := range []ast.Expr{rd.err, rd.value} {
		id, _ := e.(*ast.Ident)
		if id == nil {
			continue
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil {
			return nil, false, false
		}
		ast.Inspect(o.Func.Body, func(n ast.Node) bool {
			u, isID := n.(*ast.Ident)
			if isID && u.Pos() > o.Call.End() && info.Uses[u] == v && !astx.AssignedBetween(info, o.Func.Body, v, o.Call.End(), u.Pos()) {
				uses = append(uses, u)
			}
			return true
		})
	}
	return uses, false, true
}

// ClaimText is a SET NX that takes the key the way the write w does
// (w's key, value and TTL, on w's receiver), as source text: Pair reads
// (acquired bool, err error), Bool the acquired bool alone (false on an
// error too). ok is false when the client has no such rewrite here, or
// when w has no TTL that the SET NX can carry.
type ClaimText struct {
	Pair, Bool string
}

// claimer is implemented by adapters that can write a plain write as a
// SET NX with its TTL.
type claimer interface {
	claimText(pass *analysis.Pass, w *Op) (ClaimText, bool)
}

// Claim returns the SET NX that takes the key of w (a Write) in one
// step: see ClaimText.
func (w *Op) Claim(pass *analysis.Pass) (ClaimText, bool) {
	c, ok := w.adapter.(claimer)
	if !ok || w.Kind != Write || !w.Overwrites || w.TTL == nil || w.NonPositiveTTL() || w.Value == nil || len(w.Keys) != 1 || w.Recv == nil {
		return ClaimText{}, false
	}
	return c.claimText(pass, w)
}

// claimText: Set(ctx, k, v, ttl) and SetEx(ctx, k, v, ttl) become
// SetNX(ctx, k, v, ttl); its Result() is (acquired, err) and Val() is
// false on an error.
func (goRedis) claimText(pass *analysis.Pass, w *Op) (ClaimText, bool) {
	switch w.Method {
	case "Set", "SetEx", "SetEX":
	default:
		return ClaimText{}, false
	}
	fn, ok := typeutil.Callee(pass.TypesInfo, w.Call).(*types.Func)
	if !ok || w.TTLUnit != Duration {
		return ClaimText{}, false
	}
	if m, _, _ := types.LookupFieldOrMethod(pass.TypesInfo.TypeOf(w.Recv), true, fn.Pkg(), "SetNX"); m == nil {
		return ClaimText{}, false
	}
	ctx := ""
	if takesContext(fn) {
		ctx = fixes.Text(pass.Fset, w.Call.Args[0]) + ", "
	}
	call := fmt.Sprintf("%s.SetNX(%s%s, %s, %s)", fixes.Text(pass.Fset, w.Recv), ctx,
		fixes.Text(pass.Fset, w.Keys[0]), fixes.Text(pass.Fset, w.Value), fixes.Text(pass.Fset, w.TTL))
	return ClaimText{Pair: call + ".Result()", Bool: call + ".Val()"}, true
}

// ReadStmt is the statement that reads the reply of o (a GET), and the
// cursor at the expression it reads (the accessor call, or the call): nil
// when the reply is read in place.
func (o *Op) ReadStmt(info *types.Info) (ast.Node, inspector.Cursor, bool) {
	ar, ok := o.adapter.(absentReader)
	if !ok {
		return nil, inspector.Cursor{}, false
	}
	rd, ok := ar.absentRead(info, o)
	if !ok {
		return nil, inspector.Cursor{}, false
	}
	if sel, acc, ok := accessor(o.Cursor); ok && sel != nil {
		return rd.stmt, acc, true
	}
	return rd.stmt, o.Cursor, true
}

// The capabilities of this file (capabilities.go).
var (
	_ absentReader = goRedis{}
	_ absentReader = redigo{}
	_ absentReader = rueidisNative
	_ absentReader = (*mirrorType)(nil)
	_ claimer      = goRedis{}
)
