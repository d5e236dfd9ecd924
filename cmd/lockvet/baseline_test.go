package main

import (
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// newBugFile is a file with one new LV101 finding, for the example
// module's scheduler package.
const newBugFile = `package scheduler

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// cleanupLock is new code with the old bug.
func cleanupLock(ctx context.Context, rdb *redis.Client) bool {
	ok, err := rdb.SetNX(ctx, "lock:cleanup", "worker-1", 0).Result()
	if err != nil || !ok {
		return false
	}
	rdb.Expire(ctx, "lock:cleanup", time.Minute) // LV101: new since the baseline
	return true
}
`

// TestBaseline: -write-baseline records every finding; -baseline then
// reports nothing, and still nothing after lines are added everywhere, a
// file is renamed and a reported call is reformatted, edits that leave
// the SARIF fingerprints as they were too; a new bug is reported, in
// every output format.
func TestBaseline(t *testing.T) {
	dir := exampleCopy(t)
	all := markers(t, dir, markerSet{})
	prints := fingerprintsOf(t, dir)

	r := lockvet(t, dir, "-write-baseline", "lockvet-baseline.json", "./...")
	r.wantCode(t, exitClean)
	if r.stdout != "" || !strings.Contains(r.stderr, "wrote ") {
		t.Errorf("-write-baseline printed\n%s\n%s", r.stdout, r.stderr)
	}
	base, err := readBaseline(filepath.Join(dir, "lockvet-baseline.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range base {
		n += c
	}
	if n != len(all) {
		t.Errorf("baseline holds %d findings, want %d", n, len(all))
	}

	r = lockvet(t, dir, "-baseline", "lockvet-baseline.json", "./...")
	r.wantCode(t, exitClean)
	if r.stdout != "" {
		t.Errorf("findings despite the baseline:\n%s", r.stdout)
	}

	// Unrelated edits: lines above every finding, a renamed file, a
	// reformatted reported call.
	shiftAll(t, dir)
	moved := ""
	for _, m := range all {
		if !strings.HasPrefix(m.file, "scheduler/") && !strings.HasSuffix(m.file, "_test.go") {
			moved = m.file
			break
		}
	}
	if moved == "" {
		t.Fatal("no file to move")
	}
	if err := os.Rename(filepath.Join(dir, moved), filepath.Join(dir, strings.TrimSuffix(moved, ".go")+"_moved.go")); err != nil {
		t.Fatal(err)
	}
	reformatMarkedCall(t, dir, all)
	r = lockvet(t, dir, "-baseline", "lockvet-baseline.json", "./...")
	r.wantCode(t, exitClean)
	if r.stdout != "" {
		t.Errorf("unrelated edits brought baselined findings back:\n%s", r.stdout)
	}
	if after := fingerprintsOf(t, dir); len(prints) != len(all) || !maps.Equal(prints, after) {
		t.Errorf("%d findings, %d fingerprints; unrelated edits changed them:\nbefore %v\nafter  %v", len(all), len(prints), prints, after)
	}

	// New code is reported.
	if err := os.WriteFile(filepath.Join(dir, "scheduler", "cleanup.go"), []byte(newBugFile), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []marker{{"scheduler/cleanup.go", 16, "LV101"}}
	r = lockvet(t, dir, "-baseline", "lockvet-baseline.json", "./...")
	r.wantCode(t, exitFindings)
	sameMarkers(t, parseText(t, r.stdout), want)

	r = lockvet(t, dir, "-baseline", "lockvet-baseline.json", "-json", "./...")
	r.wantCode(t, exitClean)
	got, _ := parseJSON(t, dir, r.stdout)
	sameMarkers(t, got, want)

	r = lockvet(t, dir, "-baseline", "lockvet-baseline.json", "-format", "sarif", "./...")
	r.wantCode(t, exitFindings)
	got = nil
	for _, res := range parseSARIF(t, r.stdout).Runs[0].Results {
		got = append(got, res.marker(t, dir))
	}
	sameMarkers(t, got, want)

	r = lockvet(t, dir, "-baseline", "lockvet-baseline.json", "-format", "github", "./...")
	r.wantCode(t, exitFindings)
	if lines := strings.Count(r.stdout, "\n"); lines != 1 || !strings.Contains(r.stdout, "cleanup.go,line=16,") {
		t.Errorf("-format github with a baseline:\n%s", r.stdout)
	}

	// A missing or broken baseline is an error, not an empty baseline.
	r = lockvet(t, dir, "-baseline", "nosuchfile.json", "./...")
	r.wantCode(t, exitError)
	if !strings.HasPrefix(r.stderr, "lockvet: -baseline: ") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// reformatMarkedCall adds spaces and a comment inside the first marked
// call in scheduler/, which changes its layout and not its tokens.
func reformatMarkedCall(t *testing.T, dir string, all []marker) {
	t.Helper()
	for _, m := range all {
		if !strings.HasPrefix(m.file, "scheduler/") {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(m.file))
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := string(src)
		i := strings.Index(s, "Expire(ctx, ")
		if i < 0 {
			continue
		}
		s = s[:i] + "Expire( ctx /* reformatted */ ,\n\t\t" + s[i+len("Expire(ctx, "):]
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatal("no Expire call in a marked scheduler file")
}

const identitySrc = `package p

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

// fakeFinding is a finding of rule at the first occurrence of code in the
// package's only file, its range covering code.
func fakeFinding(t *testing.T, pkg *packages.Package, rule, code, msg string) *finding {
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
	return &finding{
		pkg:      pkg,
		analyzer: &analysis.Analyzer{Name: "fake"},
		diag:     analysis.Diagnostic{Pos: pos, End: pos + token.Pos(len(code)), Category: rule, Message: msg},
		posn:     pkg.Fset.Position(pos),
	}
}

func TestIdentity(t *testing.T) {
	_, pkg := loadTemp(t, map[string]string{"p.go": identitySrc})
	res := &result{}
	for _, tc := range []struct{ code, function, normalized string }{
		{"call(1,\n\t\t2 /* two */)", "(*T).M", "call(1, 2)"},
		{"call(3, 4)", "G.N", "call(3, 4)"},
		{"call(5, 6)", "F", "call(5, 6)"},
		{"call(7, 8)", "V", "call(7, 8)"},
		{"type T struct{}", "T", "type T struct{}"},
	} {
		id := res.identify(fakeFinding(t, pkg, "LV101", tc.code, "at /a/b/p.go:3:4, see x.go:7"))
		want := identity{Rule: "LV101", Package: "example.com/p", Function: tc.function, Code: tc.normalized, Message: "at p.go, see x.go"}
		if id != want {
			t.Errorf("identify(%q) =\n\t%+v\nwant\n\t%+v", tc.code, id, want)
		}
	}
	// Without an end, the code runs to the end of the line.
	f := fakeFinding(t, pkg, "LV101", "call(5, 6)", "m")
	f.diag.End = token.NoPos
	if id := res.identify(f); id.Code != "call(5, 6)}" {
		t.Errorf("code without an end = %q", id.Code)
	}
}

func TestNormalizeCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"rdb.Expire(ctx,key,\n\tttl)", "rdb.Expire(ctx, key, ttl)"},
		{"x := a + b // c", "x:=a+b"},
		{"return x, nil", "return x, nil"},
		{`"lock:" + id`, `"lock:"+id`},
		{"func() { a(); b() }", "func(){a(); b()}"},
	} {
		if got := normalizeCode([]byte(tc.in)); got != tc.want {
			t.Errorf("normalizeCode(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := normalizeCode([]byte(strings.Repeat("a+", 200) + "b"))
	long2 := normalizeCode([]byte(strings.Repeat("a+", 200) + "c"))
	if len(long) > maxCode+40 || long == long2 {
		t.Errorf("long code: %q (%d bytes), distinct: %v", long, len(long), long != long2)
	}
}

func TestNotInBaseline(t *testing.T) {
	_, pkg := loadTemp(t, map[string]string{"p.go": identitySrc})
	res := &result{}
	a := fakeFinding(t, pkg, "LV101", "call(3, 4)", "m")
	a2 := fakeFinding(t, pkg, "LV101", "call(3, 4)", "m")
	b := fakeFinding(t, pkg, "LV101", "call(5, 6)", "m")
	c := fakeFinding(t, pkg, "LV104", "call(5, 6)", "m")
	ida, idb, idc := res.identify(a), res.identify(b), res.identify(c)

	for _, tc := range []struct {
		name string
		base map[identity]int
		in   []*finding
		want []*finding
	}{
		{"empty baseline", map[identity]int{}, []*finding{a, b}, []*finding{a, b}},
		{"exact", map[identity]int{ida: 1, idb: 1}, []*finding{a, b, c}, []*finding{c}},
		{"count", map[identity]int{ida: 1}, []*finding{a, a2}, []*finding{a2}},
		{"count 2", map[identity]int{ida: 2}, []*finding{a, a2}, nil},
		{"reworded message", map[identity]int{with(idb, "old wording"): 1}, []*finding{b}, nil},
		{"exact wins over reworded", map[identity]int{with(idc, "old"): 1, idb: 1}, []*finding{b, c}, nil},
		{"other rule", map[identity]int{idc: 1}, []*finding{b}, []*finding{b}},
		{"other function", map[identity]int{withFunc(idb, "G.N"): 1}, []*finding{b}, []*finding{b}},
	} {
		if got := notInBaseline(res, tc.in, tc.base); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %d findings, want %d", tc.name, len(got), len(tc.want))
		}
	}
}

func with(id identity, msg string) identity    { id.Message = msg; return id }
func withFunc(id identity, fn string) identity { id.Function = fn; return id }

func TestBaselineFile(t *testing.T) {
	_, pkg := loadTemp(t, map[string]string{"p.go": identitySrc})
	res := &result{}
	a := fakeFinding(t, pkg, "LV101", "call(3, 4)", "m")
	b := fakeFinding(t, pkg, "LV101", "call(5, 6)", "m")
	path := filepath.Join(t.TempDir(), "b.json")
	if err := writeBaseline(path, res, []*finding{a, a, b}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"count": 2`) || strings.Count(string(data), `"count"`) != 1 {
		t.Errorf("baseline file:\n%s", data)
	}
	got, err := readBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[res.identify(a)] != 2 || got[res.identify(b)] != 1 {
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
		if _, err := readBaseline(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("readBaseline(%s): err = %v, want %q", content, err, want)
		}
	}
}
