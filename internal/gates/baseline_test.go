package gates

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/findings"
)

func TestNotInBaseline(t *testing.T) {
	_, pkg := clitest.LoadTemp(t, map[string]string{"p.go": clitest.IdentitySrc})
	res := &findings.Result{}
	a := clitest.FakeFinding(t, pkg, "LV101", "call(3, 4)", "m")
	a2 := clitest.FakeFinding(t, pkg, "LV101", "call(3, 4)", "m")
	b := clitest.FakeFinding(t, pkg, "LV101", "call(5, 6)", "m")
	c := clitest.FakeFinding(t, pkg, "LV104", "call(5, 6)", "m")
	ida, idb, idc := res.Identify(a), res.Identify(b), res.Identify(c)

	for _, tc := range []struct {
		name string
		base map[findings.Identity]int
		in   []*findings.Finding
		want []*findings.Finding
	}{
		{"empty baseline", map[findings.Identity]int{}, []*findings.Finding{a, b}, []*findings.Finding{a, b}},
		{"exact", map[findings.Identity]int{ida: 1, idb: 1}, []*findings.Finding{a, b, c}, []*findings.Finding{c}},
		{"count", map[findings.Identity]int{ida: 1}, []*findings.Finding{a, a2}, []*findings.Finding{a2}},
		{"count 2", map[findings.Identity]int{ida: 2}, []*findings.Finding{a, a2}, nil},
		{"reworded message", map[findings.Identity]int{with(idb, "old wording"): 1}, []*findings.Finding{b}, nil},
		{"exact wins over reworded", map[findings.Identity]int{with(idc, "old"): 1, idb: 1}, []*findings.Finding{b, c}, nil},
		{"other rule", map[findings.Identity]int{idc: 1}, []*findings.Finding{b}, []*findings.Finding{b}},
		{"other function", map[findings.Identity]int{withFunc(idb, "G.N"): 1}, []*findings.Finding{b}, []*findings.Finding{b}},
	} {
		if got := NotInBaseline(res, tc.in, tc.base); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %d findings, want %d", tc.name, len(got), len(tc.want))
		}
	}
}

func with(id findings.Identity, msg string) findings.Identity    { id.Message = msg; return id }
func withFunc(id findings.Identity, fn string) findings.Identity { id.Function = fn; return id }

func TestBaselineFile(t *testing.T) {
	_, pkg := clitest.LoadTemp(t, map[string]string{"p.go": clitest.IdentitySrc})
	res := &findings.Result{}
	a := clitest.FakeFinding(t, pkg, "LV101", "call(3, 4)", "m")
	b := clitest.FakeFinding(t, pkg, "LV101", "call(5, 6)", "m")
	path := filepath.Join(t.TempDir(), "b.json")
	if err := WriteBaseline(path, res, []*findings.Finding{a, a, b}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"count": 2`) || strings.Count(string(data), `"count"`) != 1 {
		t.Errorf("baseline file:\n%s", data)
	}
	got, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[res.Identify(a)] != 2 || got[res.Identify(b)] != 1 {
		t.Errorf("read back %v", got)
	}

	for content, want := range map[string]string{
		`{"lockvet-baseline": 2, "findings": []}`:             "baseline format 2",
		`{"lockvet-baseline": 1, "findings": [], "extra": 1}`: "not a lockvet baseline",
		`[]`: "not a lockvet baseline",
		`{}`: "baseline format 0",
	} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadBaseline(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadBaseline(%s): err = %v, want %q", content, err, want)
		}
	}
}
