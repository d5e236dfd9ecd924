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

func TestWithoutReason(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Del of lock key k does not check the owner", "Del of lock key k does not check the owner"},
		{"Del of k does not check the owner (no fix: Unlock is called from another module)", "Del of k does not check the owner"},
		// A reason that names a file in parentheses of its own.
		{"Release has no token (no fix: RedisBackend has no Eval: stubRedis (redis_test.go) wraps no go-redis client)", "Release has no token"},
		{"a (b) (no fix: c (d) e) and more", "a (b) and more"},
		// Unbalanced: kept whole rather than cut short.
		{"x (no fix: y (z)", "x (no fix: y (z)"},
	} {
		if got := findings.WithoutReason(c.in); got != c.want {
			t.Errorf("WithoutReason(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
