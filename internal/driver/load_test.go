package driver

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		e    packages.Error
		want string
	}{
		{packages.Error{Pos: "/m/bad/bad.go:8:25", Msg: "cannot use x"}, "bad/bad.go:8:25: cannot use x"},
		{packages.Error{Pos: "/m/bad/bad.go:8", Msg: "expected ;"}, "bad/bad.go:8: expected ;"},
		{packages.Error{Pos: "/elsewhere/x.go:1:2", Msg: "m"}, "/elsewhere/x.go:1:2: m"},
		{packages.Error{Msg: "# example.com/bad\nbad/bad.go:8:25: cannot use x\n"}, "bad/bad.go:8:25: cannot use x"},
		{packages.Error{Pos: "-", Msg: "no Go files"}, "no Go files"},
	} {
		if got := ErrorText("/m", tc.e); got != tc.want {
			t.Errorf("ErrorText(%+v) = %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestSelectRoots(t *testing.T) {
	p := &packages.Package{ID: "m/p", PkgPath: "m/p", Name: "p"}
	pt := &packages.Package{ID: "m/p [m/p.test]", PkgPath: "m/p", Name: "p"}
	px := &packages.Package{ID: "m/p_test [m/p.test]", PkgPath: "m/p_test", Name: "p_test"}
	pm := &packages.Package{ID: "m/p.test", PkgPath: "m/p.test", Name: "main"}
	q := &packages.Package{ID: "m/q", PkgPath: "m/q", Name: "q"}
	got := selectRoots([]*packages.Package{p, pt, px, pm, q})
	if want := []*packages.Package{pt, px, q}; !slices.Equal(got, want) {
		t.Errorf("selectRoots = %v, want %v", got, want)
	}
	// A test variant broken by its test files: keep p for its own files.
	pt.Errors = []packages.Error{{Msg: "broken test"}}
	got = selectRoots([]*packages.Package{p, pt})
	if want := []*packages.Package{p, pt}; !slices.Equal(got, want) {
		t.Errorf("selectRoots = %v, want %v", got, want)
	}
}
