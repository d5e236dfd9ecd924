package redisops

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
)

// memcache knows github.com/bradfitz/gomemcache/memcache. Items are read
// from a &memcache.Item{…} literal in the call, or from a local variable
// defined once from one in the same function (fields assigned later make
// those fields unknown):
//
//   - Add(item) is an Acquire (stores only if absent) with the item's Key,
//     Value and Expiration; NoTTL when Expiration is absent or 0 (memcached:
//     never expires). An item that cannot be read gives an Acquire with no
//     key and an unknown TTL.
//   - Set(item) is a Write; Touch(key, seconds) an Expire; Delete(key) a
//     Delete; Get(key) a Get.
//   - CompareAndSwap(item) of an item read by Get(key) in the same function
//     with Expiration set to a negative constant removes the key only if
//     nobody changed it since the Get: the owner-checked release (Get,
//     compare the value, CAS with Expiration -1) is a CompareDelete.
//     With any other Expiration it is a Write.
//
// Expiration and Touch take int32 seconds (TTLUnit Seconds). memcached
// reads a value above 30 days as a Unix time, so one computed from Unix()
// is a point in time (TTLUnit Time). Touch with a constant 0 (no expiry
// from now on) or a negative constant (expired at once) is not modelled.
// A value of []byte(s), s a string, is given as s.
type memcache struct{}

func init() {
	register(memcache{}, []string{"Add", "Set", "Touch", "Delete", "Get", "CompareAndSwap"})
}

// The capabilities this adapter has (capabilities.go).
var (
	_ adapter      = memcache{}
	_ pathFamilier = memcache{}
	_ ttlSetter    = memcache{}
	_ outcomer     = memcache{}
	_ nilReplier   = memcache{}
	_ replier      = memcache{}
	_ valueReader  = memcache{}
	_ adviser      = memcache{}
)

const memcachePath = "github.com/bradfitz/gomemcache/memcache"

func (m memcache) family(fn *types.Func) string { return m.pathFamily(fn.Pkg().Path()) }

func (memcache) pathFamily(path string) string {
	if path == memcachePath {
		return "gomemcache"
	}
	return ""
}

// mcItem is what is known of an item passed to a call.
type mcItem struct {
	lit    *ast.CompositeLit
	fields map[string]ast.Expr // field → value, for fields set once and known
	lost   map[string]bool     // fields assigned where they cannot be followed
	getKey ast.Expr            // for an item read by Get(key): key
}

func (it *mcItem) field(name string) (ast.Expr, bool) {
	if it == nil || it.lost[name] {
		return nil, false
	}
	return it.fields[name], true
}

func (m memcache) op(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func) *Op {
	if recvNamed(fn) != "Client" {
		return nil
	}
	info := pass.TypesInfo
	op := &Op{Call: call, Client: "gomemcache", Method: fn.Name()}
	cur, ok := cursorAt(pass, call)
	if !ok {
		return nil
	}
	switch fn.Name() {
	case "Add", "Set":
		if len(call.Args) != 1 {
			return nil
		}
		op.Kind = Acquire
		if fn.Name() == "Set" {
			op.Kind = Write
		}
		op.TTLUnit = Seconds
		it := m.item(info, call, cur, call.Args[0])
		if k, ok := it.field("Key"); ok && k != nil {
			op.Keys = []ast.Expr{k}
		}
		if v, ok := it.field("Value"); ok {
			op.Value = bytesOf(info, v)
		}
		if e, ok := it.field("Expiration"); ok {
			if e != nil {
				op.TTL, op.TTLUnit = e, m.unit(info, cur, e)
			}
			if v := constval.Int(info, e); op.Kind == Acquire && (e == nil || v != nil && *v == 0) {
				op.NoTTL = true
			}
		}
	case "Touch":
		if len(call.Args) != 2 {
			return nil
		}
		if v := constval.Int(info, call.Args[1]); v != nil && *v <= 0 {
			return nil
		}
		op.Kind, op.Keys = Expire, []ast.Expr{call.Args[0]}
		op.TTL, op.TTLUnit = call.Args[1], m.unit(info, cur, call.Args[1])
	case "Delete", "Get":
		if len(call.Args) != 1 {
			return nil
		}
		op.Kind, op.Keys = Delete, []ast.Expr{call.Args[0]}
		if fn.Name() == "Get" {
			op.Kind = Get
		}
	case "CompareAndSwap":
		if len(call.Args) != 1 {
			return nil
		}
		it := m.item(info, call, cur, call.Args[0])
		if it == nil {
			return nil
		}
		key := it.getKey
		if k, ok := it.field("Key"); ok && k != nil {
			key = k
		}
		if key == nil {
			return nil
		}
		op.Keys = []ast.Expr{key}
		e, ok := it.field("Expiration")
		if !ok {
			return nil
		}
		if v := constval.Int(info, e); v != nil && *v < 0 {
			op.Kind = CompareDelete
			return op
		}
		op.Kind, op.TTL, op.TTLUnit = Write, e, Seconds
		if e != nil {
			op.TTLUnit = m.unit(info, cur, e)
		}
		if v, ok := it.field("Value"); ok {
			op.Value = bytesOf(info, v)
		}
	default:
		return nil
	}
	return op
}

// item reads the item expression e passed to call: &memcache.Item{…}, or
// a local variable defined once as &memcache.Item{…} (or as memcache.Item{…}
// and passed as &v), or by Get(key) (or GetAndTouch). It returns nil when
// the item cannot be read.
func (m memcache) item(info *types.Info, call *ast.CallExpr, cur inspector.Cursor, e ast.Expr) *mcItem {
	if lit := itemLit(e); lit != nil {
		return litItem(lit)
	}
	x := ast.Unparen(e)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	body := funcBody(cur)
	if body == nil || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return nil
	}
	// The variable's definition, and later assignments to its fields.
	var it *mcItem
	writes := 0
	sets := map[string][]*ast.AssignStmt{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				switch l := ast.Unparen(l).(type) {
				case *ast.Ident:
					if info.ObjectOf(l) != v {
						continue
					}
					writes++
					if n.Tok != token.DEFINE || i >= len(n.Rhs) && len(n.Rhs) != 1 {
						continue
					}
					if len(n.Lhs) == len(n.Rhs) {
						if lit := itemLit(n.Rhs[i]); lit != nil {
							it = litItem(lit)
						} else if lit, ok := ast.Unparen(n.Rhs[i]).(*ast.CompositeLit); ok && isItemType(info, lit) {
							it = litItem(lit)
						}
					} else if i == 0 && len(n.Rhs) == 1 {
						// it, err := mc.Get(key)
						if get, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && len(get.Args) >= 1 {
							if gfn, ok := typeutil.Callee(info, get).(*types.Func); ok && gfn.Pkg() != nil && gfn.Pkg().Path() == memcachePath &&
								(gfn.Name() == "Get" || gfn.Name() == "GetAndTouch") {
								it = &mcItem{getKey: get.Args[0], fields: map[string]ast.Expr{}}
							}
						}
					}
				case *ast.SelectorExpr:
					if x, ok := ast.Unparen(l.X).(*ast.Ident); ok && info.Uses[x] == v {
						sets[l.Sel.Name] = append(sets[l.Sel.Name], n)
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v {
					writes++
					if len(n.Values) == len(n.Names) {
						if lit := itemLit(n.Values[i]); lit != nil {
							it = litItem(lit)
						}
					}
				}
			}
		}
		return true
	})
	if it == nil || writes != 1 {
		return nil
	}
	// A field assigned once, by a plain assignment before the call and in
	// the same block (got.Expiration = -1), is known; any other way of
	// setting it makes it unknown.
	for name, as := range sets {
		if len(as) == 1 && as[0].Tok == token.ASSIGN && len(as[0].Lhs) == 1 && as[0].End() < call.Pos() &&
			it.fields[name] == nil && sameBlock(cur, as[0]) {
			it.fields[name] = as[0].Rhs[0]
			continue
		}
		if it.lost == nil {
			it.lost = map[string]bool{}
		}
		it.lost[name] = true
	}
	return it
}

// sameBlock reports whether the statement s is in a block that encloses
// the call at cc, with no function literal between them.
func sameBlock(cc inspector.Cursor, s ast.Stmt) bool {
	sc, ok := cc.Inspector().Root().FindByPos(s.Pos(), s.End())
	if !ok || sc.Node() != s {
		return false
	}
	blk, ok := sc.Parent().Node().(*ast.BlockStmt)
	if !ok || cc.Node().Pos() < blk.Pos() || cc.Node().End() > blk.End() {
		return false
	}
	for c := range cc.Enclosing((*ast.FuncLit)(nil), (*ast.BlockStmt)(nil)) {
		if c.Node() == blk {
			return true
		}
		if _, ok := c.Node().(*ast.FuncLit); ok {
			return false
		}
	}
	return false
}

// itemLit matches &memcache.Item{…} (the type checked by the caller's
// package path through the literal's type).
func itemLit(e ast.Expr) *ast.CompositeLit {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	lit, _ := ast.Unparen(u.X).(*ast.CompositeLit)
	return lit
}

func isItemType(info *types.Info, lit *ast.CompositeLit) bool {
	n, ok := types.Unalias(info.TypeOf(lit)).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == memcachePath && n.Obj().Name() == "Item"
}

func litItem(lit *ast.CompositeLit) *mcItem {
	it := &mcItem{lit: lit, fields: map[string]ast.Expr{}}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			// Positional fields: Key, Value, Flags, Expiration, CasID.
			return &mcItem{lit: lit, lost: map[string]bool{"Key": true, "Value": true, "Expiration": true}}
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			it.fields[id.Name] = kv.Value
		}
	}
	return it
}

// bytesOf gives the string s for a value written as []byte(s).
func bytesOf(info *types.Info, v ast.Expr) ast.Expr {
	call, ok := ast.Unparen(v).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return v
	}
	if tv, ok := info.Types[call.Fun]; !ok || !tv.IsType() {
		return v
	}
	if b, ok := info.TypeOf(call.Args[0]).Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		return call.Args[0]
	}
	return v
}

// unit is Seconds, or Time for an expiration computed from a point in time
// (Unix(), directly or through a local variable defined once): memcached
// reads values above 30 days as a Unix time.
func (memcache) unit(info *types.Info, cur inspector.Cursor, e ast.Expr) Unit {
	body := funcBody(cur)
	var unix func(e ast.Expr, depth int) bool
	unix = func(e ast.Expr, depth int) bool {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.CallExpr:
				if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "time" {
					switch fn.Name() {
					case "Unix", "UnixMilli", "UnixMicro", "UnixNano":
						found = fn.Signature().Recv() != nil
					}
				}
			case *ast.Ident:
				if v, ok := info.Uses[n].(*types.Var); ok && body != nil && depth < 4 {
					if rhs, _ := astx.SoleDef(info, body, v); rhs != nil {
						found = unix(rhs, depth+1)
					}
				}
			}
			return !found
		})
		return found
	}
	if unix(e, 0) {
		return Time
	}
	return Seconds
}

// withTTL adds Expiration: ttl to the Add's item literal, written in the
// call or in the statement right before it; the TTL is memcached seconds
// both in Touch and in Expiration. An Expiration of 0 written in the
// literal is replaced.
func (m memcache) withTTL(pass *analysis.Pass, o *Op, ttl string, unit Unit) ([]analysis.TextEdit, bool) {
	if unit != o.TTLUnit || o.Kind != Acquire || !o.NoTTL || o.TTLUnit != Seconds || len(o.Call.Args) != 1 {
		return nil, false
	}
	lit := itemLit(o.Call.Args[0])
	if lit == nil {
		it := m.item(pass.TypesInfo, o.Call, o.Cursor, o.Call.Args[0])
		if it == nil || it.lit == nil || len(it.lost) > 0 || len(it.fields) > 0 && !litOnly(it) || !justBefore(o, it.lit) {
			return nil, false
		}
		lit = it.lit
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Expiration" {
			return []analysis.TextEdit{fixes.Replace(kv.Value, ttl)}, true
		}
	}
	return []analysis.TextEdit{fixes.AppendElt(pass.Fset, lit, "Expiration: "+ttl)}, true
}

// litOnly reports whether every known field of it comes from its literal.
func litOnly(it *mcItem) bool {
	for name, v := range it.fields {
		found := false
		for _, e := range it.lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok && kv.Value == v {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// justBefore reports whether lit is in the statement right before the one
// holding o's call, in the same statement list.
func justBefore(o *Op, lit *ast.CompositeLit) bool {
	stmt := o.Cursor
	for ; stmt.Node() != nil; stmt = stmt.Parent() {
		if _, ok := stmt.Node().(ast.Stmt); ok {
			if _, ok := stmt.Parent().Node().(*ast.BlockStmt); ok {
				break
			}
		}
	}
	prev, ok := stmt.PrevSibling()
	return ok && prev.Node().Pos() <= lit.Pos() && lit.End() <= prev.Node().End()
}

// --- outcome ---

// outcome: Add returns nil when it stored the item, memcache.ErrNotStored
// when the key exists (held), and another error when it failed.
func (memcache) outcome(_ *types.Info, o *Op) (Outcome, bool) {
	if o.Method != "Add" {
		return Outcome{}, false
	}
	out := Outcome{Busy: BusyErr, Expr: o.Call, ExprCursor: o.Cursor}
	return shapeRead(out, readErrOnly), true
}

func (memcache) busyErr(info *types.Info, _ *Op, e ast.Expr) bool {
	return isPkgVar(info, e, "ErrNotStored", func(path string) bool { return path == memcachePath })
}

// advice: memcached has no scripts. The TTL is the Item's Expiration; an
// owner-checked release or renewal is gets + cas: Get the item (which
// carries its CAS ID), compare its Value with the token, and
// CompareAndSwap it, which fails if the item changed since the Get.
// Expiration -1 makes the swapped item expire at once: a delete.
func (memcache) advice(o *Op, a Advice) string {
	switch a {
	case AdviseTTL:
		if o.Method == "Add" {
			return "set the Expiration (seconds) of the Item"
		}
	case AdviseRelease:
		return "Get, compare Value, then CompareAndSwap with Expiration -1"
	case AdviseRenew:
		return "Get, compare Value, then CompareAndSwap with the new Expiration"
	}
	return ""
}

// --- replies ---

// reply: Get returns (*Item, error); the item is kept in the first
// variable (it, err := mc.Get(key)). Its value is it.Value (replyValue).
func (memcache) reply(info *types.Info, o *Op) (ast.Expr, *types.Var) {
	if o.Kind != Get {
		return nil, nil
	}
	return nil, pairFirst(info, o.Cursor.Parent().Node())
}

// replyValue: it.Value or string(it.Value) read the value of the item it.
func (memcache) replyValue(info *types.Info, _ *Op, e ast.Expr) ast.Expr {
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
			if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
				e = ast.Unparen(call.Args[0])
			}
		}
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Value" {
		return nil
	}
	t := info.TypeOf(sel.X)
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); !ok || n.Obj().Name() != "Item" || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != memcachePath {
		return nil
	}
	return ast.Unparen(sel.X)
}
