package clitest

import (
	"go/token"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/internal/findings"
)

// IdentitySrc is a package with one call in each kind of top-level
// declaration, for FakeFinding.
const IdentitySrc = `package p

type T struct{}

type G[K comparable] struct{}

func (t *T) M() {
	call(1,
		2 /* two */)
}

func (g G[K]) N() { call(3, 4) }

func F() { call(5, 6) }

var V = func() { call(7, 8) }

func call(a, b int) {}
`

// FakeFinding is a finding of rule at the first occurrence of code in the
// package's only file, its range covering code.
func FakeFinding(t testing.TB, pkg *packages.Package, rule, code, msg string) *findings.Finding {
	t.Helper()
	file := pkg.Syntax[0]
	tf := pkg.Fset.File(file.Pos())
	src, err := os.ReadFile(tf.Name())
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(src), code)
	if i < 0 {
		t.Fatalf("%q not in the source", code)
	}
	pos := tf.Pos(i)
	return &findings.Finding{
		Pkg:      pkg,
		Analyzer: &analysis.Analyzer{Name: "fake"},
		Diag:     analysis.Diagnostic{Pos: pos, End: pos + token.Pos(len(code)), Category: rule, Message: msg},
		Posn:     pkg.Fset.Position(pos),
	}
}
