package applyfix

import (
	"bytes"
	"testing"
)

func TestConflicts(t *testing.T) {
	for _, tc := range []struct {
		a, b Edit
		want bool
	}{
		{Edit{0, 5, "x"}, Edit{5, 8, "y"}, false},  // adjacent
		{Edit{0, 5, "x"}, Edit{4, 8, "y"}, true},   // overlapping
		{Edit{2, 3, "x"}, Edit{0, 8, "y"}, true},   // nested
		{Edit{2, 5, "x"}, Edit{2, 5, "x"}, false},  // identical: applied once
		{Edit{2, 5, "x"}, Edit{2, 5, "y"}, true},   // same range, other text
		{Edit{3, 3, "x"}, Edit{3, 3, "y"}, true},   // two insertions at one point
		{Edit{3, 3, "x"}, Edit{3, 3, "x"}, false},  // the same insertion twice
		{Edit{3, 3, "x"}, Edit{0, 3, "y"}, false},  // insertion after a replacement
		{Edit{3, 3, "x"}, Edit{3, 6, "y"}, false},  // insertion before a replacement
		{Edit{4, 4, "x"}, Edit{3, 6, "y"}, true},   // insertion inside a replacement
		{Edit{3, 6, "y"}, Edit{4, 4, "x"}, true},   // (symmetric)
		{Edit{10, 12, ""}, Edit{0, 2, "z"}, false}, // far apart
	} {
		if got := Conflicts(tc.a, tc.b); got != tc.want {
			t.Errorf("Conflicts(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestApply(t *testing.T) {
	src := []byte("0123456789")
	got := Apply(src, []Edit{{8, 10, "X"}, {3, 3, "+"}, {0, 2, ""}, {3, 5, "-"}, {3, 3, "+"}})
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
