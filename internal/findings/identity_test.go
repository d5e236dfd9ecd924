package findings_test

import (
	"go/token"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/findings"
)

func TestMain(m *testing.M) { clitest.Main(m) }

func TestIdentity(t *testing.T) {
	_, pkg := clitest.LoadTemp(t, map[string]string{"p.go": clitest.IdentitySrc})
	res := &findings.Result{}
	for _, tc := range []struct{ code, function, normalized string }{
		{"call(1,\n\t\t2 /* two */)", "(*T).M", "call(1, 2)"},
		{"call(3, 4)", "G.N", "call(3, 4)"},
		{"call(5, 6)", "F", "call(5, 6)"},
		{"call(7, 8)", "V", "call(7, 8)"},
		{"type T struct{}", "T", "type T struct{}"},
	} {
		id := res.Identify(clitest.FakeFinding(t, pkg, "LV101", tc.code, "at /a/b/p.go:3:4, see x.go:7"))
		want := findings.Identity{Rule: "LV101", Package: "example.com/p", Function: tc.function, Code: tc.normalized, Message: "at p.go, see x.go"}
		if id != want {
			t.Errorf("identify(%q) =\n\t%+v\nwant\n\t%+v", tc.code, id, want)
		}
	}
	// Without an end, the code runs to the end of the line.
	f := clitest.FakeFinding(t, pkg, "LV101", "call(5, 6)", "m")
	f.Diag.End = token.NoPos
	if id := res.Identify(f); id.Code != "call(5, 6)}" {
		t.Errorf("code without an end = %q", id.Code)
	}
}
