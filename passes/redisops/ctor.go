package redisops

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockname"
)

// Lock types whose value a constructor takes from its caller:
//
//	func NewLocker(key, value string, ttl time.Duration, rdb redis.UniversalClient) *Locker {
//		return &Locker{Key: key, Value: value, TTL: ttl, Conn: rdb}
//	}
//	func (o *Locker) Lock() (bool, error) { … o.Conn.SetNX(ctx, o.Key, o.Value, o.TTL) … }
//	func (o *Locker) UnLock() error { … o.Conn.Del(ctx, o.Key) … }
//
// Whatever a caller passes as value becomes the value every Lock writes
// and every owner check compares: a constant there ("lockValue") is
// shared by every holder, however careful the lock type is. The caller
// is often in another package, where no operation shows it. A Ctor
// summarizes such a constructor where the lock type is (this file), and
// travels to callers as a fact (CtorFact, facts.go); a call of it is a
// CtorCall of the caller's result, whatever its package.
//
// A constructor is summarized when all of these hold:
//
//   - a method of the type (the acquire) writes a field of its receiver
//     as the value of a SET NX with a TTL (a lock with no TTL never
//     passes to another holder: no owner check is needed);
//   - a method of the type releases or renews a key of the acquired
//     key's shape (a DEL, a compare-and-delete, an EXPIRE, a script that
//     deletes or expires it): without one, a shared value harms nothing
//     (a set-once marker);
//   - the value is a token: the type or the acquire is named like a lock,
//     or the type compares the field with what the key holds (a
//     compare-and-delete with it as the token, or a GET of the key
//     compared with it, in one of its methods);
//   - the field is written in the package only by composite literals and
//     by functions that are not methods of the type nor anything else
//     that could overwrite it after construction (a method setting a
//     fresh token per Lock makes the constructor's value irrelevant);
//   - the constructor is a function with no receiver returning the type
//     (or a pointer to it) whose every write of the field is one of its
//     parameters, never assigned in it.
//
// A cache type with a fill-if-absent and an invalidation (SET NX, DEL)
// whose names say nothing of a lock and that never compares its value is
// not summarized.

// Owner is how a lock type tells its holders apart by the value.
type Owner uint8

const (
	// OwnerNone: the release deletes (or renews) with no owner check.
	OwnerNone Owner = iota
	// OwnerRelease: a release or renewal compares the key's value with
	// the field (compare-and-delete): with a shared value it matches
	// other holders' locks.
	OwnerRelease
	// OwnerAcquire: the acquire decides it holds the lock by comparing
	// the value the key holds with the field: with a shared value every
	// caller holds it at once.
	OwnerAcquire
)

// Ctor is a constructor of a lock type that keeps one of its parameters
// as the lock's value. It holds only plain fields: it is a fact's
// payload.
type Ctor struct {
	// Func is the constructor's qualified name, Name its own, Type the
	// lock type's name and Field the name of the field holding the value.
	Func, Name, Type, Field string
	// Value is the index of the parameter that becomes the value; Key
	// the index of the one that becomes the key field the acquire
	// writes, or -1.
	Value, Key int
	// Acquire is the method that writes the value, Method its Redis
	// call (SetNX, SET) and Where that call, "dir/file.go:line".
	Acquire, Method, Where string
	// Release is the method that releases or renews the lock.
	Release string
	// Owner is how the type tells holders apart by the value, and
	// Compare the method that compares (with OwnerRelease and
	// OwnerAcquire) and CompareAt where, "dir/file.go:line".
	Owner              Owner
	Compare, CompareAt string
}

// String is the summary for the fact expectations of tests:
// "ctor value=1 key=0 Locker.Value Lock SetNX Unlock owner=release:Unlock".
func (c *Ctor) String() string {
	s := "ctor value=" + strconv.Itoa(c.Value) + " key=" + strconv.Itoa(c.Key) + " " + c.Type + "." + c.Field + " " + c.Acquire + " " + c.Method + " " + c.Release
	switch c.Owner {
	case OwnerRelease:
		s += " owner=release:" + c.Compare
	case OwnerAcquire:
		s += " owner=acquire:" + c.Compare
	}
	return s
}

// CtorFact is the fact exported for a constructor summarized by Ctor.
type CtorFact struct {
	Ctor Ctor
}

// AFact marks CtorFact as an analysis fact.
func (*CtorFact) AFact() {}

func (f *CtorFact) String() string { return f.Ctor.String() }

// CtorCall is a call of a constructor that keeps one of its arguments as
// the lock's value (Ctor), in this package or another.
type CtorCall struct {
	Call   *ast.CallExpr
	Cursor inspector.Cursor
	Ctor   *Ctor
	// Value is the argument that becomes the lock's value, Key the one
	// that becomes its key (nil when the constructor takes none).
	Value, Key ast.Expr
	// Func is the function declaration or literal the call is in, nil
	// for a call in a package-level initializer.
	Func ast.Node
}

// ctorCall records the call at cur when it calls a constructor known
// from a fact, and reports whether it does.
func (b *builder) ctorCall(cur inspector.Cursor) bool {
	call := cur.Node().(*ast.CallExpr)
	if name, _ := calledName(call); !b.ctorNames[name] {
		return false
	}
	fn := typeutil.StaticCallee(b.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == b.pass.Pkg || methodExpr(b.pass.TypesInfo, call) {
		return false
	}
	factWork.Add(1)
	c := b.ctors[fn.Origin()]
	if c == nil {
		return false
	}
	b.addCtorCall(cur, c)
	return true
}

// methodExpr reports whether call calls a method expression
// ((*T).M(recv, …)): its arguments start with the receiver.
func methodExpr(info *types.Info, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := info.Selections[sel]
	return ok && s.Kind() == types.MethodExpr
}

func (b *builder) addCtorCall(cur inspector.Cursor, c *Ctor) {
	call := cur.Node().(*ast.CallExpr)
	if call.Ellipsis.IsValid() || c.Value >= len(call.Args) {
		return
	}
	cc := &CtorCall{Call: call, Cursor: cur, Ctor: c, Value: call.Args[c.Value],
		Func: innermost(cur, (*ast.FuncDecl)(nil), (*ast.FuncLit)(nil))}
	if c.Key >= 0 && c.Key < len(call.Args) {
		cc.Key = call.Args[c.Key]
	}
	b.res.CtorCalls = append(b.res.CtorCalls, cc)
}

// lockCtors summarizes the package's constructors of lock types (see
// above), records the package's calls of them, and exports the facts of
// the exported ones. It runs only in packages that have ops, and reads
// the package beyond its ops only when a method acquires with a field of
// its receiver as the value.
func (b *builder) lockCtors() {
	cands := b.tokenFields()
	if len(cands) == 0 {
		return
	}
	info := b.pass.TypesInfo
	fields := map[*types.Var]*tokenField{}
	for _, c := range cands {
		fields[c.field] = c
	}
	type ctorDecl struct {
		fn   *types.Func
		decl *ast.FuncDecl
		tf   *tokenField
	}
	var decls []ctorDecl
	for _, file := range b.pass.Files {
		if astx.InTest(b.pass.Fset, file.Pos()) {
			continue
		}
		for _, d := range file.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil {
				continue
			}
			fn, ok := info.Defs[decl.Name].(*types.Func)
			if !ok {
				continue
			}
			// The lock type fn makes, when it is a constructor of one: a
			// function, or a method of another type, returning it.
			var made *tokenField
			for _, c := range cands {
				if recvTypeName(fn) != c.typ && returnsType(fn, c.typ) {
					made = c
					break
				}
			}
			markOverwrites(info, decl.Body, fields, made)
			if made != nil {
				decls = append(decls, ctorDecl{fn, decl, made})
			}
		}
	}
	ctors := map[*types.Func]*Ctor{}
	for _, d := range decls {
		if d.tf.overwritten {
			continue
		}
		value, key := ctorParams(info, d.fn, d.decl, d.tf)
		if value < 0 {
			continue
		}
		c := d.tf.ctor
		c.Func, c.Name, c.Value, c.Key = fullName(d.fn), d.fn.Name(), value, key
		ctors[d.fn] = &c
	}
	if len(ctors) == 0 {
		return
	}
	for cur := range b.res.Inspector.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if fn := typeutil.StaticCallee(info, call); fn != nil && fn.Pkg() == b.pass.Pkg && !methodExpr(info, call) {
			if c := ctors[fn.Origin()]; c != nil {
				b.addCtorCall(cur, c)
			}
		}
	}
	slices.SortStableFunc(b.res.CtorCalls, func(x, y *CtorCall) int {
		p, q := b.pass.Fset.Position(x.Call.Pos()), b.pass.Fset.Position(y.Call.Pos())
		return cmp.Or(cmp.Compare(p.Filename, q.Filename), cmp.Compare(p.Offset, q.Offset))
	})
	if !exportsFacts(b.pass) {
		return
	}
	fns := make([]*types.Func, 0, len(ctors))
	for fn := range ctors {
		if fn.Exported() {
			fns = append(fns, fn)
		}
	}
	// Deterministic order (some hosts encode facts in it), as for
	// summaries: by file name, then offset.
	fset := b.pass.Fset
	slices.SortFunc(fns, func(x, y *types.Func) int {
		p, q := fset.Position(x.Pos()), fset.Position(y.Pos())
		return cmp.Or(cmp.Compare(p.Filename, q.Filename), cmp.Compare(p.Offset, q.Offset))
	})
	for _, fn := range fns {
		b.pass.ExportObjectFact(fn, &CtorFact{Ctor: *ctors[fn]})
		factWork.Add(1)
	}
}

// markOverwrites marks the token fields that body can change after
// construction: an assignment (but in the constructor of the field's
// type, made, outside function literals, read by ctorParams), an
// increment, an address taken. A composite literal makes a separate
// value: not an overwrite.
func markOverwrites(info *types.Info, body ast.Node, fields map[*types.Var]*tokenField, made *tokenField) {
	mark := func(e ast.Expr, allowed bool) {
		if f := astx.FieldOf(info, e); f != nil {
			if tf := fields[f.Origin()]; tf != nil && !(allowed && tf == made) {
				tf.overwritten = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if made != nil {
				markOverwrites(info, n.Body, fields, nil)
				return false
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				mark(l, true)
			}
		case *ast.IncDecStmt:
			mark(n.X, false)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X, false)
			}
		}
		return true
	})
}

// tokenField is a field of a lock type that its acquire writes as the
// lock's value, with the evidence read so far (ctor: every field but the
// constructor's own).
type tokenField struct {
	typ         *types.TypeName
	field       *types.Var
	keyField    *types.Var // the field the acquired key is, or nil
	ctor        Ctor
	overwritten bool
}

// tokenFields finds the fields of the package's types that a method
// writes as a lock's value, and that the type releases and treats as a
// token (see above): one per type, from its first acquire.
func (b *builder) tokenFields() []*tokenField {
	info := b.pass.TypesInfo
	var out []*tokenField
	seen := map[*types.TypeName]bool{}
	for _, a := range b.res.Ops {
		if a.Kind != Acquire || a.NoTTL || a.Value == nil || a.Func == nil || len(a.Keys) != 1 || a.KeysSpread {
			continue
		}
		mfn := a.Func.Scope().Func()
		tn := recvTypeName(mfn)
		if tn == nil || tn.Pkg() != b.pass.Pkg || seen[tn] {
			continue
		}
		f := recvField(info, mfn, a.Value)
		if f == nil {
			continue
		}
		tf := &tokenField{typ: tn, field: f}
		tf.keyField, _ = a.KeyForm().Field()
		tf.ctor = Ctor{Type: tn.Name(), Field: f.Name(), Key: -1, Acquire: mfn.Name(), Method: a.Method, Where: where(b.pass.Fset, a.Call.Pos())}
		for _, o := range b.res.Ops {
			if o == a || o.Func == nil || len(o.Keys) != 1 || o.KeysSpread {
				continue
			}
			ofn := o.Func.Scope().Func()
			if recvTypeName(ofn) != tn || !sameLockKey(a, o) {
				continue
			}
			switch {
			case o.Kind == Get:
				if tf.ctor.Owner == OwnerNone && comparesField(info, o.Func.Scope().Body(), f) {
					tf.ctor.Owner, tf.ctor.Compare, tf.ctor.CompareAt = OwnerAcquire, ofn.Name(), where(b.pass.Fset, o.Call.Pos())
				}
			case releasesOrRenews(o):
				if tf.ctor.Release == "" {
					tf.ctor.Release = ofn.Name()
				}
				if tok := ownerToken(o); tok != nil && tf.ctor.Owner == OwnerNone && recvField(info, ofn, tok) == f {
					tf.ctor.Owner, tf.ctor.Compare, tf.ctor.CompareAt = OwnerRelease, ofn.Name(), where(b.pass.Fset, o.Call.Pos())
				}
			}
		}
		if tf.ctor.Release == "" {
			continue // a set-once marker: its value needs no owner
		}
		if tf.ctor.Owner == OwnerNone && !lockname.LockLike(tn.Name(), false) && !lockname.LockLike(mfn.Name(), true) {
			continue // no evidence that the value is a lock's token
		}
		seen[tn] = true
		out = append(out, tf)
	}
	return out
}

// sameLockKey reports whether o is on a's key: the same key in one
// function, a key of the same shape in two.
func sameLockKey(a, o *Op) bool {
	if a.Func.Scope() == o.Func.Scope() && keyid.Same(a.KeyForm(), o.KeyForm()) {
		return true
	}
	return keyid.SameShape(a.KeyForm(), o.KeyForm())
}

// releasesOrRenews reports whether o deletes or renews its key: a DEL,
// a compare-and-delete, an EXPIRE (that does not delete it), a script
// that deletes or expires it.
func releasesOrRenews(o *Op) bool {
	switch o.Kind {
	case Delete, CompareDelete:
		return true
	case Expire:
		return !o.DeletesKey()
	case Script:
		if o.ScriptSrc == "" {
			return false
		}
		switch lua.Classify(o.ScriptSrc).Kind {
		case lua.CompareAndDelete, lua.UncheckedDelete, lua.CompareAndExpire, lua.UncheckedExpire:
			return true
		}
	}
	return false
}

// ownerToken is the token o compares the key's value with (a
// compare-and-delete's value, a compare script's token argument), or nil.
func ownerToken(o *Op) ast.Expr {
	switch o.Kind {
	case CompareDelete:
		return o.Value
	case Script:
		if sc := lua.Classify(o.ScriptSrc); sc.TokenArg > 0 && sc.TokenArg <= len(o.Args) {
			return o.Args[sc.TokenArg-1]
		}
	}
	return nil
}

// recvTypeName is the type name of fn's receiver (its origin), or nil.
func recvTypeName(fn *types.Func) *types.TypeName {
	if fn == nil {
		return nil
	}
	tn, _ := RecvType(fn).(*types.TypeName)
	return tn
}

// recvField is the field e selects from fn's receiver (o.Value), or nil.
func recvField(info *types.Info, fn *types.Func, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || fn.Signature().Recv() == nil {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || info.Uses[id] != fn.Signature().Recv() {
		return nil
	}
	if f := astx.FieldOf(info, sel); f != nil {
		return f.Origin()
	}
	return nil
}

// comparesField reports whether body compares something with field f
// (== or !=, either side).
func comparesField(info *types.Info, body ast.Node, f *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if be, ok := n.(*ast.BinaryExpr); ok && (be.Op == token.EQL || be.Op == token.NEQ) {
			for _, side := range []ast.Expr{be.X, be.Y} {
				if g := astx.FieldOf(info, ast.Unparen(side)); g != nil && g.Origin() == f {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// returnsType reports whether fn's first result is the named type tn or
// a pointer to it.
func returnsType(fn *types.Func, tn *types.TypeName) bool {
	rs := fn.Signature().Results()
	if rs.Len() == 0 {
		return false
	}
	t := types.Unalias(rs.At(0).Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	return ok && n.Origin().Obj() == tn
}

// ctorParams reads the constructor decl of fn: the index of the
// parameter every write of tf's field in it is (-1 when a write is
// anything else, or there is none), and of the parameter every write of
// the key field is (-1 likewise).
func ctorParams(info *types.Info, fn *types.Func, decl *ast.FuncDecl, tf *tokenField) (value, key int) {
	param := func(e ast.Expr) int { return paramIndex(info, fn, decl, e) }
	value, key = -2, -2 // -2: not written yet
	note := func(at *int, i int) {
		switch {
		case *at == -2:
			*at = i
		case *at != i:
			*at = -1
		}
	}
	write := func(f *types.Var, e ast.Expr) {
		switch f = f.Origin(); {
		case f == tf.field:
			note(&value, param(e))
		case tf.keyField != nil && f == tf.keyField:
			note(&key, param(e))
		}
	}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CompositeLit:
			if t, ok := info.TypeOf(n).(*types.Named); !ok || t.Origin().Obj() != tf.typ {
				return true
			}
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() {
							write(f, kv.Value)
						}
					}
				} else {
					value = -1 // an unkeyed literal: not followed
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if f := astx.FieldOf(info, l); f != nil && n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
					write(f, n.Rhs[i])
				} else if f != nil {
					write(f, nil)
				}
			}
		}
		return true
	})
	return max(value, -1), max(key, -1)
}
