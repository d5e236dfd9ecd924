package applyfix

import (
	"bytes"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestConflicts(t *testing.T) {
	for _, tc := range []struct {
		a, b Edit
		want bool
	}{
		{Edit{0, 5, "x", false}, Edit{5, 8, "y", false}, false},  // adjacent
		{Edit{0, 5, "x", false}, Edit{4, 8, "y", false}, true},   // overlapping
		{Edit{2, 3, "x", false}, Edit{0, 8, "y", false}, true},   // nested
		{Edit{2, 5, "x", false}, Edit{2, 5, "x", false}, false},  // identical: applied once
		{Edit{2, 5, "x", false}, Edit{2, 5, "y", false}, true},   // same range, other text
		{Edit{3, 3, "x", false}, Edit{3, 3, "y", false}, true},   // two insertions at one point
		{Edit{3, 3, "x", true}, Edit{3, 3, "y", true}, false},    // two declarations at one point: both
		{Edit{3, 3, "x", true}, Edit{3, 3, "y", false}, true},    // a declaration and a statement
		{Edit{3, 3, "x", false}, Edit{3, 3, "x", false}, false},  // the same insertion twice
		{Edit{3, 3, "x", false}, Edit{0, 3, "y", false}, false},  // insertion after a replacement
		{Edit{3, 3, "x", false}, Edit{3, 6, "y", false}, false},  // insertion before a replacement
		{Edit{4, 4, "x", false}, Edit{3, 6, "y", false}, true},   // insertion inside a replacement
		{Edit{3, 6, "y", false}, Edit{4, 4, "x", false}, true},   // (symmetric)
		{Edit{10, 12, "", false}, Edit{0, 2, "z", false}, false}, // far apart
	} {
		if got := Conflicts(tc.a, tc.b); got != tc.want {
			t.Errorf("Conflicts(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestApply(t *testing.T) {
	src := []byte("0123456789")
	got := Apply(src, []Edit{{8, 10, "X", false}, {3, 3, "+", false}, {0, 2, "", false}, {3, 5, "-", false}, {3, 3, "+", false}})
	if want := "2+-567X"; string(got) != want {
		t.Errorf("Apply = %q, want %q", got, want)
	}
}

func TestTidy(t *testing.T) {
	src := `package p

import (
	"fmt"
	str "strings"
	"time"
	_ "embed"
)

func f() string { return str.ToUpper("x") }
`
	names := map[string]string{"fmt": "fmt", "strings": "str", "embed": "_"}
	got, err := Tidy("p.go", []byte(src), names)
	if err != nil {
		t.Fatal(err)
	}
	// fmt is unused and known: removed. str is used. time was not in the
	// original file (a fix added it): kept. The blank import stays.
	want := `package p

import (
	_ "embed"
	str "strings"
	"time"
)

func f() string { return str.ToUpper("x") }
`
	if string(got) != want {
		t.Errorf("Tidy:\n%s\nwant:\n%s", got, want)
	}

	if _, err := Tidy("p.go", []byte("package p\nfunc {"), nil); err == nil {
		t.Error("Tidy accepted invalid Go")
	}
}

// A fix's deletion of an import is recognised, so -fix leaves the import
// to Tidy (another fix applied with it may use it again); other deletions
// are not.
func TestImportDeletion(t *testing.T) {
	src := []byte("package p\n\nimport (\n\t\"fmt\"\n\tr \"github.com/gomodule/redigo/redis\" // pool\n)\n\nimport \"os\"\n\nvar x = []string{\n\t\"fmt\",\n}\n")
	names := map[string]string{"fmt": "fmt", "github.com/gomodule/redigo/redis": "r", "os": "os"}
	span := func(s string) Edit {
		i := bytes.Index(src, []byte(s))
		return Edit{Start: i, End: i + len(s)}
	}
	for _, c := range []struct {
		e    Edit
		want bool
	}{
		{span("\t\"fmt\"\n"), true},
		{span("\tr \"github.com/gomodule/redigo/redis\" // pool\n"), true},
		{span("import \"os\"\n"), true},
		{span("\t\"fmt\",\n"), false},
		{Edit{Start: span("\t\"fmt\"\n").Start, End: span("\t\"fmt\"\n").End, Text: "x"}, false},
	} {
		if got := importDeletion(src, c.e, names); got != c.want {
			t.Errorf("importDeletion(%q) = %v, want %v", src[c.e.Start:c.e.End], got, c.want)
		}
	}
}

func TestDeclInsertion(t *testing.T) {
	src := `package p

import "fmt"

// doc of f
func f() {
	fmt.Println()
}

var v = 1
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	tf := fset.File(file.Pos())
	at := func(s string) int { return strings.Index(src, s) }
	decl := "var unlockScript = 1\n\n"
	for _, tc := range []struct {
		name string
		e    Edit
		want bool
	}{
		{"between declarations", Edit{Start: at("var v"), End: at("var v"), Text: decl}, true},
		{"before a doc comment", Edit{Start: at("// doc"), End: at("// doc"), Text: "func g() {}\n\n"}, true},
		{"at the end", Edit{Start: len(src), End: len(src), Text: "\n" + decl}, true},
		{"in a function body", Edit{Start: at("fmt.Println"), End: at("fmt.Println"), Text: decl}, false},
		{"inside a comment", Edit{Start: at("doc of"), End: at("doc of"), Text: decl}, false},
		{"before the imports", Edit{Start: at("import"), End: at("import"), Text: decl}, false},
		{"a statement", Edit{Start: at("var v"), End: at("var v"), Text: "x := 1\n"}, false},
		{"an import", Edit{Start: at("var v"), End: at("var v"), Text: "import \"os\"\n"}, false},
		{"a replacement", Edit{Start: at("var v"), End: at("var v") + 3, Text: decl}, false},
	} {
		if got := DeclInsertion(tf, file, tc.e).Decl; got != tc.want {
			t.Errorf("%s: Decl = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Two declarations at one point are both applied, in text order.
	p := at("var v")
	got := Apply([]byte(src), []Edit{{p, p, "var b = 2\n", true}, {p, p, "var a = 1\n", true}})
	if !bytes.Contains(got, []byte("var a = 1\nvar b = 2\nvar v = 1")) {
		t.Errorf("Apply of two declarations at one point:\n%s", got)
	}
}
