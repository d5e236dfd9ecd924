package redisops

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

// Ops are ordered by the package's file list, then position, whatever
// order the files were parsed in: go/packages parses them in parallel,
// so the file parsed first (the lower positions) varies between runs.
func TestSortOpsFileOrder(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name, src string) *ast.File {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// b.go is parsed first, so its positions are lower than a.go's.
	b := parse("b.go", "package p\nfunc g() { del(); get() }\n")
	a := parse("a.go", "package p\nfunc f() { get() }\n")
	calls := func(f *ast.File) []*ast.CallExpr {
		var out []*ast.CallExpr
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				out = append(out, c)
			}
			return true
		})
		return out
	}
	bc, ac := calls(b), calls(a)
	fa := &Func{Node: a.Decls[0]}
	fb := &Func{Node: b.Decls[0]}
	opA := &Op{Call: ac[0], Method: "a.get", Func: fa}
	opB1 := &Op{Call: bc[0], Method: "b.del", Func: fb}
	opB2 := &Op{Call: bc[1], Method: "b.get", Func: fb}
	r := &Result{Ops: []*Op{opB2, opA, opB1}, Funcs: []*Func{fb, fa}}
	fb.Ops = []*Op{opB2, opB1}
	fa.Ops = []*Op{opA}
	r.sortOps([]*ast.File{a, b})
	var got []string
	for _, o := range r.Ops {
		got = append(got, o.Method)
	}
	if want := []string{"a.get", "b.del", "b.get"}; !slices.Equal(got, want) {
		t.Errorf("ops in order %v, want %v (the file list's order, then position)", got, want)
	}
	if r.Funcs[0] != fa || fb.Ops[0] != opB1 {
		t.Errorf("funcs or a func's ops not in file-list order")
	}
}
