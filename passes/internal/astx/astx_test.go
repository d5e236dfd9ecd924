package astx

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func TestStmtList(t *testing.T) {
	src := `package p
func f(x int, c chan int) {
	a := 1
	switch x {
	case 1:
		a, x = 2, 3
	}
	select {
	case <-c:
		_ = a
	}
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	lens := map[string]int{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.AssignStmt:
			lens[fmt.Sprintf("%T", n)] += len(StmtList(n))
		}
		return true
	})
	// The body's 3 statements plus the switch's and select's bodies (1
	// clause each), a case clause of 1 and a comm clause of 1; an
	// assignment holds no list.
	want := map[string]int{"*ast.BlockStmt": 5, "*ast.CaseClause": 1, "*ast.CommClause": 1, "*ast.AssignStmt": 0}
	for k, v := range want {
		if lens[k] != v {
			t.Errorf("%s: %d statements, want %d", k, lens[k], v)
		}
	}
}

func TestLineIndent(t *testing.T) {
	src := "package p\n\nfunc f() {\n\t  x := 1\n\t_ = x\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) ([]byte, error) {
		if name != "p.go" {
			return nil, fmt.Errorf("no file %s", name)
		}
		return []byte(src), nil
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	for i, want := range []string{"\t  ", "\t"} {
		got, ok := LineIndent(fset, read, body.List[i].Pos())
		if !ok || got != want {
			t.Errorf("statement %d: LineIndent = %q, %v; want %q, true", i, got, ok, want)
		}
	}
	if got, ok := LineIndent(fset, read, f.Name.Pos()); !ok || got != "" {
		t.Errorf("package clause: LineIndent = %q, %v; want \"\", true", got, ok)
	}
	// A reader that gives other bytes than the FileSet saw is no answer.
	short := func(string) ([]byte, error) { return []byte("package p\n"), nil }
	if _, ok := LineIndent(fset, short, body.Pos()); ok {
		t.Error("LineIndent read a file of another size")
	}
	if _, ok := LineIndent(fset, read, token.NoPos); ok {
		t.Error("LineIndent answered for NoPos")
	}
}
