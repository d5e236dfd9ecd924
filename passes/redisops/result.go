package redisops

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// An acquire has three outcomes: acquired, busy (someone else holds the
// key) and failed (the command never ran or Redis answered an error).
// Clients report them in different places; this file says where, so that
// checks can follow the outcome without knowing the client.

// Busy is where a client reports that an acquire found the key held.
type Busy uint8

const (
	// BusyFalse: the reply value is a bool, true when the key was set and
	// false when it was held; the error is set only when the command
	// failed, and then the value is false (the client turns the nil
	// reply into false, so the error is never the nil-reply sentinel).
	BusyFalse Busy = iota + 1
	// BusyErr: a held key comes back as the client's nil-reply error
	// (see IsBusyErr); the reply value is a status string, "OK" when the
	// key was set and "" otherwise (held or failed).
	BusyErr
	// ErrOnly: the acquire returns an error that is nil exactly when it
	// took the lock; busy and failed are both a non-nil error, which the
	// code cannot tell apart by comparing it. Other results (a lock
	// handle, a context) are not part of the outcome: Value is nil.
	ErrOnly
	// BusyNil: the reply value is nil when the key was held (and when the
	// command failed), and the reply itself when it was set (the status
	// "OK"); the error is set only when the command failed.
	BusyNil
	// BusyZero: the reply value is an integer, 1 when the key was set and
	// 0 when it was held (and when the command failed); the error is set
	// only when the command failed.
	BusyZero
	// BusyNever: the reply is read with a conversion that fails on the
	// reply that means "set", so the code can never see the lock
	// acquired: every call comes back as an error or as busy.
	BusyNever
	// BusyCount: the reply is INCR's count (an INCR lock, incr.go): 1
	// when this call took the lock, more when another holds it; a
	// failed command reads 0 with the error set.
	BusyCount
)

// ReadKind is how an acquire's reply is consumed where the call is made.
type ReadKind uint8

const (
	// ReadOther: the command value is stored, passed on or returned; the
	// reply is read elsewhere (not followed).
	ReadOther ReadKind = iota
	// ReadNone: the reply is discarded: the call, or an accessor on it,
	// is a statement or assigned to blanks.
	ReadNone
	// ReadErr: only the error is read.
	ReadErr
	// ReadValue: only the value is read.
	ReadValue
	// ReadBoth: the value and the error are read.
	ReadBoth
)

// Outcome is how an acquire reports its outcome and how the code reads it.
type Outcome struct {
	Busy Busy
	Read ReadKind
	// Value carries the reply value: the variable it is assigned to (an
	// *ast.Ident) or the accessor call itself when used in place. Nil when
	// the value is not read.
	Value ast.Expr
	// Err carries the error, like Value.
	Err ast.Expr
	// Accessor is the accessor call on the command (the value, error or
	// both), or nil when the command itself is discarded.
	Accessor *ast.CallExpr
	// Expr is the outermost expression of the read: Accessor, or the call.
	Expr ast.Expr
	// Stmt is the statement that reads the reply when the read is a whole
	// statement: an *ast.ExprStmt, or the *ast.AssignStmt / *ast.ValueSpec
	// that assigns Value and Err. Nil when the read is used in place.
	Stmt ast.Node
	// ExprCursor is the cursor at Expr.
	ExprCursor inspector.Cursor
	// IsLock is set when the call takes a lock by definition (a lock
	// library's acquire, a function declared as an acquire): checks need
	// no other evidence that it is a lock.
	IsLock bool
}

// Outcome describes where the acquire o reports acquired / busy / failed
// and how the code around the call reads it. It fails for other ops, for
// clients whose adapter does not describe results, and for acquire forms
// whose reply means something else (SET NX GET returns the old value).
func (o *Op) Outcome(info *types.Info) (Outcome, bool) {
	oc, ok := o.adapter.(outcomer)
	if !ok || o.Kind != Acquire {
		return Outcome{}, false
	}
	return oc.outcome(info, o)
}

// IsBusyErr reports whether e is the error value o's client uses for a nil
// reply, the "key held" answer of a BusyErr acquire (redis.Nil).
func (o *Op) IsBusyErr(info *types.Info, e ast.Expr) bool {
	nr, ok := o.adapter.(nilReplier)
	return ok && e != nil && nr.busyErr(info, o, ast.Unparen(e))
}

// BusyTest recognizes a call of a client predicate that tests an error for
// the nil reply (rueidis.IsRedisNil(err)) and returns the tested error.
func (o *Op) BusyTest(info *types.Info, call *ast.CallExpr) (ast.Expr, bool) {
	nt, ok := o.adapter.(nilTester)
	if !ok {
		return nil, false
	}
	return nt.busyTest(info, o, call)
}

// ReadBoth returns the edits that make out's error-only read also assign
// the value, to a variable called name: `err := cmd.Err()` becomes
// `name, err := cmd.Result()`, `_, err := cmd.Result()` becomes
// `name, err := cmd.Result()`. It fails unless out is an error-only read
// assigned by an := or = statement.
func (o *Op) ReadBoth(out Outcome, name string) ([]analysis.TextEdit, bool) {
	rb, ok := o.adapter.(readBother)
	if !ok || out.Read != ReadErr || out.Accessor == nil || out.Err == nil {
		return nil, false
	}
	if _, ok := out.Stmt.(*ast.AssignStmt); !ok {
		return nil, false
	}
	return rb.readBoth(out, name)
}

// busyRead says how an adapter rewrites the read of an acquire whose busy
// answer moves from (false, nil) to the client's nil-reply error (SETNX
// rewritten into SET NX).
type busyRead struct {
	from    string // the accessor or conversion that returns (bool, error)
	to      string // its replacement, which returns the error alone or (value, error)
	pair    bool   // to returns (value, error); the value goes to _
	errOnly string // an accessor that returns the error alone and stays, or ""
	// isNil is the source of a test of the error e for the nil reply.
	isNil func(e string) string
}

// keepBusyFalse returns the edits that keep out's read exact when the
// acquire now reports busy as the nil-reply error: the read becomes r.to,
// the value is derived as err == nil, and the nil reply is cleared,
// statement by statement:
//
//	v, e := read            →  e := read'   (or _, e := read')
//	                            v := e == nil
//	                            if isNil(e) {
//	                            	e = nil
//	                            }
//	_, e := read            →  the same without v
//	v, _ := read            →  v := read' == nil (an error-only read')
//	e := errOnly            →  the same, plus the if
//
// Errors stay what they were and the value is false with them. A
// discarded reply needs no edit. Any other read (in place, in an if's or a
// switch's init, returned, passed on): false.
func keepBusyFalse(pass *analysis.Pass, out Outcome, r busyRead) ([]analysis.TextEdit, bool) {
	if out.Busy != BusyFalse {
		return nil, false
	}
	if out.Read == ReadNone {
		return nil, true
	}
	as, ok := out.Stmt.(*ast.AssignStmt)
	if !ok || out.Accessor == nil || out.Err == nil && out.Value == nil {
		return nil, false
	}
	switch out.ExprCursor.Parent().Parent().Node().(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return nil, false // an init statement: no room for statements
	}
	sel, ok := ast.Unparen(out.Accessor.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	assign := func(e ast.Expr) string {
		if id, ok := e.(*ast.Ident); ok && as.Tok == token.DEFINE && pass.TypesInfo.Defs[id] != nil {
			return " := "
		}
		return " = "
	}
	lhs := func(e ast.Expr) analysis.TextEdit {
		text := fixes.Text(pass.Fset, e) + assign(e)
		if r.pair {
			text = "_, " + text
		}
		return analysis.TextEdit{Pos: as.Lhs[0].Pos(), End: as.Rhs[0].Pos(), NewText: []byte(text)}
	}
	var edits []analysis.TextEdit
	var after []string
	switch {
	case sel.Sel.Name == r.from && len(as.Lhs) == 2 && out.Err == nil:
		if r.pair {
			return nil, false // no error-only form to compare with nil
		}
		edits = append(edits, lhs(out.Value), fixes.Replace(sel.Sel, r.to),
			analysis.TextEdit{Pos: out.Accessor.End(), End: out.Accessor.End(), NewText: []byte(" == nil")})
		return edits, true
	case sel.Sel.Name == r.from && len(as.Lhs) == 2:
		edits = append(edits, lhs(out.Err), fixes.Replace(sel.Sel, r.to))
		if out.Value != nil {
			after = append(after, fixes.Text(pass.Fset, out.Value)+assign(out.Value)+fixes.Text(pass.Fset, out.Err)+" == nil")
		}
	case r.errOnly != "" && sel.Sel.Name == r.errOnly && len(as.Lhs) == 1 && out.Err != nil:
	default:
		return nil, false
	}
	e := fixes.Text(pass.Fset, out.Err)
	ind := fixes.Indent(pass, as.Pos())
	after = append(after, fmt.Sprintf("if %s {\n%s\t%s = nil\n%s}", r.isNil(e), ind, e, ind))
	text := ""
	for _, s := range after {
		text += "\n" + ind + s
	}
	return append(edits, analysis.TextEdit{Pos: as.End(), End: as.End(), NewText: []byte(text)}), true
}

// readShape is what an outcome's expression yields.
type readShape uint8

const (
	readCmd       readShape = iota // the command value itself
	readErrOnly                    // an error
	readValueOnly                  // a value
	readPair                       // a value and an error
)

// accessor is the method called in place on the value of the call at cur
// (rdb.SetNX(…).Err()): its selector, and the cursor at its call. sel is
// nil when the value is not the operand of a selector; ok is false when
// it is not, or when the selected method is not called in place with no
// arguments.
func accessor(cur inspector.Cursor) (sel *ast.SelectorExpr, acc inspector.Cursor, ok bool) {
	sel, isSel := cur.Parent().Node().(*ast.SelectorExpr)
	if !isSel || sel.X != cur.Node() {
		return nil, inspector.Cursor{}, false
	}
	call, isCall := cur.Parent().Parent().Node().(*ast.CallExpr)
	if !isCall || call.Fun != sel || len(call.Args) != 0 {
		return sel, inspector.Cursor{}, false
	}
	return sel, cur.Parent().Parent(), true
}

// readReply fills in how the code reads the reply of the acquire o: in
// place by one of the accessors reads names (cmd.Err() yields an error,
// cmd.Result() a pair), a method of a package ours accepts; or as the
// command value itself. Another method, or one not called in place, is a
// read not followed (ReadOther).
func readReply(info *types.Info, out Outcome, o *Op, reads map[string]readShape, ours func(path string) bool) Outcome {
	out.Expr, out.ExprCursor = o.Call, o.Cursor
	sel, acc, ok := accessor(o.Cursor)
	if sel == nil {
		return shapeRead(out, readCmd)
	}
	read, known := reads[sel.Sel.Name]
	if !ok || !known {
		return out
	}
	call := acc.Node().(*ast.CallExpr)
	if fn, ok := typeutil.Callee(info, call).(*types.Func); !ok || fn.Pkg() == nil || !ours(fn.Pkg().Path()) {
		return out
	}
	out.Accessor = call
	out.Expr, out.ExprCursor = call, acc
	return shapeRead(out, read)
}

// shapeRead fills in how out's expression (out.Expr at out.ExprCursor),
// which yields what read says, is consumed.
func shapeRead(out Outcome, read readShape) Outcome {
	var lhs []ast.Expr
	switch p := out.ExprCursor.Parent().Node().(type) {
	case *ast.ExprStmt:
		out.Read, out.Stmt = ReadNone, p
		return out
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 || (p.Tok != token.DEFINE && p.Tok != token.ASSIGN) {
			return out
		}
		lhs, out.Stmt = p.Lhs, p
	case *ast.ValueSpec:
		if len(p.Values) != 1 {
			return out
		}
		for _, n := range p.Names {
			lhs = append(lhs, n)
		}
		out.Stmt = p
	}
	for _, l := range lhs {
		if !isBlank(l) && named(l) == nil {
			out.Stmt = nil // a field or an index: not followed
			return out
		}
	}
	switch read {
	case readCmd:
		if len(lhs) == 1 && isBlank(lhs[0]) {
			out.Read = ReadNone
		} else {
			out.Stmt = nil
		}
	case readErrOnly, readValueOnly:
		var e ast.Expr
		if lhs == nil {
			e = out.Expr // used in place
		} else {
			e = named(lhs[0])
		}
		if read == readErrOnly {
			out.Err = e
		} else {
			out.Value = e
		}
		out.Read = readOf(out.Value, out.Err)
	case readPair:
		if len(lhs) != 2 {
			out.Stmt = nil // returned or passed on
			return out
		}
		out.Value, out.Err = named(lhs[0]), named(lhs[1])
		out.Read = readOf(out.Value, out.Err)
	}
	return out
}

// readOf is the ReadKind of a read that keeps the value in value and the
// error in err (nil: not kept).
func readOf(value, err ast.Expr) ReadKind {
	switch {
	case value != nil && err != nil:
		return ReadBoth
	case value != nil:
		return ReadValue
	case err != nil:
		return ReadErr
	}
	return ReadNone
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// named is e when it is an identifier other than _, or nil.
func named(e ast.Expr) ast.Expr {
	if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
		return id
	}
	return nil
}

// readBothVia returns the edits of an adapter's readBoth for accessors
// named like go-redis': `err := cmd.ERRONLY()` becomes
// `name, err := cmd.PAIR()`, and `_, err := read` (read by PAIR, or by
// anything when pair is "") becomes `name, err := read`.
func readBothVia(out Outcome, name, errOnly, pair string) ([]analysis.TextEdit, bool) {
	as := out.Stmt.(*ast.AssignStmt)
	sel, _ := out.Accessor.Fun.(*ast.SelectorExpr)
	method := ""
	if sel != nil {
		method = sel.Sel.Name
	}
	switch {
	case errOnly != "" && method == errOnly && len(as.Lhs) == 1:
		return []analysis.TextEdit{
			{Pos: as.Lhs[0].Pos(), End: as.Lhs[0].Pos(), NewText: []byte(name + ", ")},
			fixes.Replace(sel.Sel, pair),
		}, true
	case (pair == "" || method == pair) && len(as.Lhs) == 2 && isBlank(as.Lhs[0]):
		return []analysis.TextEdit{fixes.Replace(as.Lhs[0], name)}, true
	}
	return nil, false
}

// pkgLevel is the package-level object that e names (x, or pkg.x), or nil:
// a client's nil-reply error value is one (redis.Nil).
func pkgLevel(info *types.Info, e ast.Expr) types.Object {
	id := nameOf(e)
	if id == nil {
		return nil
	}
	obj := info.ObjectOf(id)
	if obj == nil || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		return nil
	}
	return obj
}

// isPkgVar reports whether e names the package-level variable name of a
// package whose path ours accepts.
func isPkgVar(info *types.Info, e ast.Expr, name string, ours func(path string) bool) bool {
	v, ok := pkgLevel(info, e).(*types.Var)
	return ok && v.Name() == name && ours(v.Pkg().Path())
}
