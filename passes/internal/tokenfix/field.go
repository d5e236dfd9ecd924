package tokenfix

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/passes/internal/astx"
	"github.com/lockvet/lockvet/passes/internal/constval"
	"github.com/lockvet/lockvet/passes/internal/fixes"
	"github.com/lockvet/lockvet/passes/redisops"
)

// A lock struct: Lock, a method with a pointer receiver, acquires the key
// held in a field of its receiver (l.key), and Unlock, a method of the
// same type, deletes that field's key by a bare DEL. No variable reaches
// from one to the other, but the receiver does, so the fix keeps the
// token in a new field of the struct:
//
//   - the struct gains a string field (token, or a free name);
//   - Lock stores the value it writes in it just before the acquire, and
//     writes the field (a constant value becomes a random token first:
//     rand.Text(), or the package's newLockToken before Go 1.24);
//   - every DEL of the key field, in methods of the type, deletes only
//     while the key holds its receiver's token.
//
// No fix when the type is exported (literals of other packages), has a
// literal without field names, or its key field is read by other commands
// (they would see the new value) or written outside Lock and literals.

type fieldKey struct {
	a    *redisops.Op
	opts redisops.ReleaseOptions
}

// Field returns the lock-struct plan for the lock acquired by a: the same
// value for every check of the package that asks.
func Field(pass *analysis.Pass, res *redisops.Result, a *redisops.Op, opts redisops.ReleaseOptions) *Plan {
	return res.Shared(fieldKey{a, opts}, func() any { return buildField(pass, res, a, opts) }).(*Plan)
}

func buildField(pass *analysis.Pass, res *redisops.Result, a *redisops.Op, opts redisops.ReleaseOptions) *Plan {
	const notStruct = "the key is not a field of Lock's receiver"
	info := pass.TypesInfo
	if a.Kind != redisops.Acquire || a.Value == nil || a.Func == nil || len(a.Keys) != 1 || a.Func.Body == nil {
		return no("the value is not written in the call")
	}
	decl, ok := a.Func.Node.(*ast.FuncDecl)
	if !ok || decl.Recv == nil || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return no(notStruct)
	}
	if _, ptr := decl.Recv.List[0].Type.(*ast.StarExpr); !ptr {
		return no(decl.Name.Name + " has no pointer receiver")
	}
	recv, ok := info.Defs[decl.Recv.List[0].Names[0]].(*types.Var)
	if !ok || recv.Name() == "_" {
		return no(notStruct)
	}
	sel, ok := ast.Unparen(a.Keys[0]).(*ast.SelectorExpr)
	if !ok {
		return no(notStruct)
	}
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); !ok || info.Uses[id] != recv {
		return no(notStruct)
	}
	keyField := astx.FieldOf(info, sel)
	if keyField == nil {
		return no(notStruct)
	}
	named, ok := types.Unalias(deref(recv.Type())).(*types.Named)
	if !ok || named.Obj().Pkg() != pass.Pkg || named.TypeParams().Len() > 0 {
		return no(notStruct)
	}
	tname := named.Obj().Name()
	if named.Obj().Exported() {
		return no(tname + " is exported")
	}
	files := res.FileIndex(pass)
	file := files.At(a.Call.Pos())
	if file == nil || astx.InTest(pass.Fset, a.Call.Pos()) || ast.IsGenerated(file) {
		return no("a test or generated file")
	}
	st := structDecl(files.At(named.Obj().Pos()), named.Obj())
	if st == nil || st.Fields == nil {
		return no(tname + " is not declared as a struct")
	}
	tf := pass.Fset.File(st.Pos())
	if n := len(st.Fields.List); n > 0 && tf.Line(st.Fields.List[n-1].End()) == tf.Line(st.Fields.Closing) || tf.Line(st.Fields.Opening) == tf.Line(st.Fields.Closing) {
		return no(tname + " is declared on one line")
	}

	// Literals of the type name their fields; the key field is written
	// only by Lock and literals.
	var why string
	for n := range res.Inspector.PreorderSeq((*ast.CompositeLit)(nil)) {
		lit := n.(*ast.CompositeLit)
		if t := info.TypeOf(lit); t != nil && types.Identical(deref(t), named) && len(lit.Elts) > 0 {
			if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); !keyed {
				why = tname + " has a literal without field names"
			}
		}
	}
	astx.FieldWrites(info, res.Inspector, func(f *types.Var, _ ast.Expr, at ast.Node) {
		if f != keyField {
			return
		}
		if _, lit := at.(*ast.KeyValueExpr); lit || at.Pos() >= decl.Pos() && at.End() <= decl.End() {
			return
		}
		why = fmt.Sprintf("%s.%s is written elsewhere", tname, keyField.Name())
	})
	if why != "" {
		return no(why)
	}

	// The key field's operations: deletes in methods of the type.
	var dels []*redisops.Op
	for _, o := range res.Ops {
		if o == a || o.Func == nil {
			continue
		}
		onKey := false
		for _, k := range o.Keys {
			if astx.FieldOf(info, k) == keyField {
				onKey = true
			}
		}
		if !onKey {
			continue
		}
		switch o.Kind {
		case redisops.Delete:
			dels = append(dels, o)
		case redisops.Expire:
		case redisops.Acquire:
			return no("another acquire of the key")
		default:
			return no(fmt.Sprintf("%s also uses the value", o.Method))
		}
	}
	if len(dels) == 0 {
		return no("no release of the key field")
	}

	// The token field's name: free among the type's fields and methods.
	name := ""
	for _, n := range []string{"token", "lockToken", "token2", "token3"} {
		if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, pass.Pkg, n); obj == nil {
			name = n
			break
		}
	}
	if name == "" {
		return no("no free name for the token field")
	}
	field := recv.Name() + "." + name

	stmt, _, ok := insertion(a, nil)
	if !ok {
		return no("the acquire is in no statement")
	}
	indent := fixes.Indent(pass, stmt.Pos())
	var edits []analysis.TextEdit
	value := ""
	if constval.Known(info, a.Value) {
		text, ok := valueText(info, a)
		if !ok {
			return no("the value's type takes no string token")
		}
		tokExpr, tokEdits, ok := tokenExpr(pass, res, file, stmt.Pos())
		if !ok {
			return no("crypto/rand cannot be imported here")
		}
		edits = append(edits, tokEdits...)
		edits = append(edits, fixes.Replace(a.Value, strings.ReplaceAll(text, "TOKEN", field)))
		value = tokExpr
	} else {
		// The value Lock writes already (a random id): kept, evaluated
		// once just before the acquire.
		t := info.TypeOf(a.Value)
		if b, ok := t.(*types.Basic); !ok || b.Kind() != types.String {
			return no("the value is no string")
		}
		if !fixes.InScopeAt(info, pass.Pkg, a.Value, stmt.Pos()) || astx.Encloses(stmt, a.Value) && assignsIn(info, stmt, a.Value) {
			return no("the value is made in the acquire's statement")
		}
		value = fixes.Text(pass.Fset, a.Value)
		if _, isID := ast.Unparen(a.Value).(*ast.Ident); !isID {
			edits = append(edits, fixes.Replace(a.Value, field))
		}
	}
	edits = append(edits, analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(field + " = " + value + "\n" + indent)})
	edits = append(edits, analysis.TextEdit{Pos: st.Fields.Closing, End: st.Fields.Closing, NewText: []byte(fmt.Sprintf(
		"\n\t// %s is the value %s acquired the lock with: a release deletes the\n\t// key only while it still holds it.\n\t%s string\n", name, decl.Name.Name, name))})

	for _, d := range dels {
		dd, ok := d.Func.Node.(*ast.FuncDecl)
		if !ok || dd.Recv == nil || len(dd.Recv.List) != 1 || len(dd.Recv.List[0].Names) != 1 {
			return no("a release outside the type's methods")
		}
		drecv, ok := info.Defs[dd.Recv.List[0].Names[0]].(*types.Var)
		if !ok || drecv.Name() == "_" || !types.Identical(deref(drecv.Type()), named) {
			return no("a release outside the type's methods")
		}
		ksel := keySel(info, d, keyField)
		if ksel == nil {
			return no("a release of several keys")
		}
		if id, ok := ast.Unparen(ksel.X).(*ast.Ident); !ok || info.Uses[id] != drecv {
			return no("a release of another value's key")
		}
		rel, why := releaseEdits(pass, d, drecv.Name()+"."+name, opts)
		if why != "" {
			return no(why)
		}
		edits = append(edits, rel...)
	}
	edits, ok = coalesce(edits)
	if !ok {
		return no("the edits overlap")
	}
	return &Plan{OK: true, Fix: analysis.SuggestedFix{
		Message:   fmt.Sprintf("Keep the token %s acquires with in %s.%s, and release only while the key holds it", decl.Name.Name, tname, name),
		TextEdits: edits,
	}}
}

// keySel is the key of d that is keyField, as a selector.
func keySel(info *types.Info, d *redisops.Op, keyField *types.Var) *ast.SelectorExpr {
	if len(d.Keys) != 1 {
		return nil
	}
	sel, ok := ast.Unparen(d.Keys[0]).(*ast.SelectorExpr)
	if !ok || astx.FieldOf(info, sel) != keyField {
		return nil
	}
	return sel
}

// structDecl is the struct type that declares obj in file, or nil.
func structDecl(file *ast.File, obj types.Object) *ast.StructType {
	if file == nil {
		return nil
	}
	var st *ast.StructType
	ast.Inspect(file, func(n ast.Node) bool {
		if st != nil {
			return false
		}
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Pos() == obj.Pos() {
			st, _ = ts.Type.(*ast.StructType)
			return false
		}
		return true
	})
	return st
}

// assignsIn reports whether stmt assigns a variable that e reads.
func assignsIn(info *types.Info, stmt ast.Stmt, e ast.Expr) bool {
	read := map[types.Object]bool{}
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] != nil {
			read[info.Uses[id]] = true
		}
		return true
	})
	found := false
	ast.Inspect(stmt, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && (read[info.Uses[id]] || read[info.Defs[id]]) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
