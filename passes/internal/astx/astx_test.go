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
