// Package constval reads the constant values the type checker records for
// expressions, for redisops and the checks: one place for "is this
// argument the integer 0", "the string "OK"", "a boolean".
package constval

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// Int is e's value when e is an integer constant that fits an int64, or
// nil.
func Int(info *types.Info, e ast.Expr) *int64 {
	c := IntValue(info, e)
	if c == nil {
		return nil
	}
	v, exact := constant.Int64Val(c)
	if !exact {
		return nil
	}
	return &v
}

// String is e's value when e is a string constant, or nil.
func String(info *types.Info, e ast.Expr) *string {
	if e == nil {
		return nil
	}
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return nil
	}
	s := constant.StringVal(tv.Value)
	return &s
}

// IsBool reports whether e is a boolean constant.
func IsBool(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool
}

// Known reports whether e is a constant of any kind.
func Known(info *types.Info, e ast.Expr) bool {
	if e == nil {
		return false
	}
	tv, ok := info.Types[e]
	return ok && tv.Value != nil
}

// IntValue is e's value when e is an integer constant of any size, or nil.
func IntValue(info *types.Info, e ast.Expr) constant.Value {
	if e == nil {
		return nil
	}
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return nil
	}
	return tv.Value
}
