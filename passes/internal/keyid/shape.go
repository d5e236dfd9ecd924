package keyid

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
)

// Shape is one index key of a key expression's shape. Two expressions of
// the same shape (SameShape) always share at least one Shape, so callers
// that compare many keys can bucket them by ShapeKeys and run SameShape
// only within a bucket instead of on every pair.
type Shape struct {
	path string       // where in the expression: x/y sides of +, f for a Sprintf format, * a dereference
	obj  types.Object // the variable or field, or nil for a constant
	val  string       // the constant, or ""
}

// ShapeKeys returns the index keys of e's shape: if SameShape(info, a, b)
// or Same(info, body, a, b) then ShapeKeys(info, a) and ShapeKeys(info, b)
// have a key in common. The converse does not hold (a shared key is only a
// candidate). It returns nil for expressions that are the same key as
// nothing.
func ShapeKeys(info *types.Info, e ast.Expr) []Shape {
	return shapeKeys(info, e, "", nil)
}

func shapeKeys(info *types.Info, e ast.Expr, path string, out []Shape) []Shape {
	e = ast.Unparen(e)
	if e == nil {
		return out
	}
	if c := constValue(info, e); c != nil {
		return append(out, Shape{path: path, val: constKey(c)})
	}
	switch e := e.(type) {
	case *ast.Ident:
		if obj := info.ObjectOf(e); obj != nil {
			out = append(out, Shape{path: path, obj: obj})
		}
	case *ast.SelectorExpr:
		if obj := info.ObjectOf(e.Sel); obj != nil {
			out = append(out, Shape{path: path, obj: obj})
		}
	case *ast.CallExpr:
		if len(e.Args) > 0 && isSprintf(info, e) {
			out = shapeKeys(info, e.Args[0], path+"f"+strconv.Itoa(len(e.Args)), out)
		} else if fn := KeyBuilder(info, e); fn != nil {
			out = append(out, Shape{path: path + "c", obj: fn})
		}
	case *ast.StarExpr:
		out = shapeKeys(info, e.X, path+"*", out)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			out = shapeKeys(info, e.X, path+"x", out)
			if constValue(info, e.Y) != nil {
				out = shapeKeys(info, e.Y, path+"y", out)
			}
		}
	}
	return out
}

// constKey is a bucket for constant c: constants equal under
// constant.Compare share it.
func constKey(c constant.Value) string {
	switch c.Kind() {
	case constant.String:
		return "s" + constant.StringVal(c)
	case constant.Bool:
		return "b" + c.String()
	case constant.Int, constant.Float, constant.Complex:
		return "n" // numbers of different kinds can compare equal
	}
	return "?"
}
