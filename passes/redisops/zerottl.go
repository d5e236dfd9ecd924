package redisops

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/lockvet/lockvet/passes/internal/astx"
)

// A lock type keeps its TTL in a field, set by its constructor:
//
//	func NewMutex(rdb *redis.Client, name string) *Mutex {
//		return &Mutex{rdb: rdb, key: "lock:" + name} // ttl left out
//	}
//	func (m *Mutex) Lock(ctx context.Context) (bool, error) {
//		return m.rdb.SetNX(ctx, m.key, token, m.ttl).Result()
//	}
//
// When the field is unexported, declared in this package, and every
// write of it in the package is the constant 0 (or there is none), the
// TTL is 0 at every acquire: go-redis' SetNX (and a mirror's) then sets
// no expiry, as for a literal 0. zeroFieldTTLs marks such acquires NoTTL
// and records the field (Op.TTLField) and where it is set to 0
// (Op.TTLZeroAt, nil when nothing sets it). A field whose address is
// taken, that is incremented, or set from anything but a constant 0 is
// not followed.

// zeroFieldTTLs runs after the call walk, only when an acquire's TTL
// reads a field.
func zeroFieldTTLs(pass *analysis.Pass, in *inspector.Inspector, res *Result) {
	info := pass.TypesInfo
	var todo []*Op
	for _, op := range res.Ops {
		if op.Kind == Acquire && !op.NoTTL && op.TTL != nil && zeroTTLClient(op) && ttlField(info, pass.Pkg, op.TTL) != nil {
			todo = append(todo, op)
		}
	}
	if len(todo) == 0 {
		return
	}
	fields := map[*types.Var]bool{}
	for _, op := range todo {
		fields[ttlField(info, pass.Pkg, op.TTL)] = true
	}
	nonZero := map[*types.Var]bool{}
	zeroAt := map[*types.Var]ast.Node{}
	write := func(f *types.Var, value ast.Expr, at ast.Node) {
		if !fields[f] {
			return
		}
		if value == nil || !isZero(info, value) {
			nonZero[f] = true
		} else if zeroAt[f] == nil {
			zeroAt[f] = at
		}
	}
	astx.FieldWrites(info, in, write)
	for _, op := range todo {
		if f := ttlField(info, pass.Pkg, op.TTL); !nonZero[f] {
			op.NoTTL, op.TTLField, op.TTLZeroAt = true, f, zeroAt[f]
		}
	}
}

// zeroTTLClient reports whether o's client sends a zero TTL as no
// expiry: go-redis' SetNX, and a mirror's.
func zeroTTLClient(o *Op) bool {
	return strings.EqualFold(o.Method, "SetNX") && (strings.HasPrefix(o.Client, "go-redis") || o.Client == "mirror")
}

// ttlField is the field a TTL expression is made of: the field itself
// (l.ttl), converted (time.Duration(l.sec)) or multiplied by anything
// (o.ExpireTime*time.Second: zero times anything is zero). Only an
// unexported field of a struct declared in pkg: no other package can
// set it. Nil otherwise.
func ttlField(info *types.Info, pkg *types.Package, e ast.Expr) *types.Var {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op != token.MUL {
			return nil
		}
		if f := ttlField(info, pkg, x.X); f != nil {
			return f
		}
		return ttlField(info, pkg, x.Y)
	case *ast.CallExpr:
		if tv, ok := info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return ttlField(info, pkg, x.Args[0])
		}
	case *ast.SelectorExpr:
		if f := astx.FieldOf(info, x); f != nil && !f.Exported() && f.Pkg() == pkg {
			return f
		}
	}
	return nil
}

// isZero reports whether e is a numeric constant 0.
func isZero(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	}
	return false
}
