package clitest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/analyzer"
)

// A Marker is a "// LV101: why" comment at the end of a line of a test
// module: a finding of that check is expected on that line. Findings are
// compared with markers as Markers too.
type Marker struct {
	File string // slash-separated, relative to the module root
	Line int
	ID   string
}

func (m Marker) String() string { return fmt.Sprintf("%s:%d: %s", m.File, m.Line, m.ID) }

var markerRE = regexp.MustCompile(`^// (LV\d{3}): \S`)

// MarkerSet describes which markers a run is expected to report.
type MarkerSet struct {
	Generated bool                 // include markers in generated files
	NoTests   bool                 // leave out markers in _test.go files
	IDs       func(id string) bool // the checks that run; nil means all registered
	Under     string               // only files below this directory (slash path), "" for all
}

// Markers reads the expected findings of the module in dir (ReadMarkers)
// and fails the test on a marker it cannot read.
func Markers(t testing.TB, dir string, s MarkerSet) []Marker {
	t.Helper()
	out, err := ReadMarkers(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ReadMarkers reads the expected findings of the module in dir. A marker
// whose ID the registry does not know is an error: a check dropped from
// the registry must fail its expectations, not lose them.
func ReadMarkers(dir string, s MarkerSet) ([]Marker, error) {
	var out []Marker
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if s.Under != "" && !strings.HasPrefix(rel, s.Under+"/") {
			return nil
		}
		if s.NoTests && strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) && !s.Generated {
			return nil
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				m := markerRE.FindStringSubmatch(c.Text)
				if m == nil {
					continue
				}
				id, line := m[1], fset.Position(c.Pos()).Line
				if analyzer.Lookup(id) == nil {
					return fmt.Errorf("%s:%d: marker %s names no registered check", rel, line, id)
				}
				if s.IDs != nil && !s.IDs(id) {
					continue
				}
				out = append(out, Marker{rel, line, id})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Marker) int { return strings.Compare(a.String(), b.String()) })
	return out, nil
}

// SameMarkers compares findings with expectations and lists differences.
func SameMarkers(t testing.TB, got, want []Marker) {
	t.Helper()
	got = slices.Clone(got)
	slices.SortFunc(got, func(a, b Marker) int { return strings.Compare(a.String(), b.String()) })
	for _, m := range want {
		if i := slices.Index(got, m); i >= 0 {
			got = slices.Delete(got, i, i+1)
		} else {
			t.Errorf("missing finding %s", m)
		}
	}
	for _, m := range got {
		t.Errorf("unexpected finding %s (no marker on that line)", m)
	}
}
