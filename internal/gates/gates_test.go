package gates

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/findings"
)

func TestMain(m *testing.M) { clitest.Main(m) }

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

// analyze analyses the module in dir, tests included, as the command
// does. A test gates one result several ways (gated) rather than
// analysing the same code again for each gate.
func analyze(t *testing.T, dir string) *findings.Result {
	t.Helper()
	return clitest.Analyze(t, dir, nil, true, "./...")
}

// gated returns the findings of res, the analysis of the module in dir,
// that the gates o let through. res is left as it was.
func gated(t *testing.T, res *findings.Result, dir string, o Options) []clitest.Marker {
	t.Helper()
	all, suppressed := res.Findings, res.Suppressed
	defer func() { res.Findings, res.Suppressed = all, suppressed }()
	o.Dir = dir
	if err := Select(res, o); err != nil {
		t.Fatal(err)
	}
	return clitest.FindingMarkers(dir, res.Findings)
}

// fingerprints maps each fingerprint of res's findings to its rule.
func fingerprints(res *findings.Result) map[string]string {
	_, prints := res.Fingerprinted()
	out := map[string]string{}
	for f, fp := range prints {
		out[fp] = f.Rule()
	}
	return out
}

// TestBaseline: a baseline written from every finding selects none of
// them, and still none after lines are added everywhere, a file is
// renamed and a reported call is reformatted, edits that leave the
// fingerprints as they were too; a new bug is selected.
func TestBaseline(t *testing.T) {
	dir := clitest.ExampleCopy(t)
	all := clitest.Markers(t, dir, clitest.MarkerSet{})
	res := analyze(t, dir)
	prints := fingerprints(res)
	file := filepath.Join(dir, "lockvet-baseline.json")
	if err := WriteBaseline(file, res, res.Findings); err != nil {
		t.Fatal(err)
	}
	base, err := ReadBaseline(file)
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
	if got := gated(t, res, dir, Options{Baseline: file}); len(got) != 0 {
		t.Errorf("findings despite the baseline: %v", got)
	}

	// Unrelated edits: lines above every finding, a renamed file, a
	// reformatted reported call.
	clitest.ShiftAll(t, dir)
	moved := ""
	for _, m := range all {
		if !strings.HasPrefix(m.File, "scheduler/") && !strings.HasSuffix(m.File, "_test.go") {
			moved = m.File
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
	res = analyze(t, dir)
	if got := gated(t, res, dir, Options{Baseline: file}); len(got) != 0 {
		t.Errorf("unrelated edits brought baselined findings back: %v", got)
	}
	if after := fingerprints(res); len(prints) != len(all) || !maps.Equal(prints, after) {
		t.Errorf("%d findings, %d fingerprints; unrelated edits changed them:\nbefore %v\nafter  %v", len(all), len(prints), prints, after)
	}

	// New code is selected.
	if err := os.WriteFile(filepath.Join(dir, "scheduler", "cleanup.go"), []byte(newBugFile), 0o644); err != nil {
		t.Fatal(err)
	}
	clitest.SameMarkers(t, gated(t, analyze(t, dir), dir, Options{Baseline: file}), []clitest.Marker{{File: "scheduler/cleanup.go", Line: 16, ID: "LV101"}})

	// A missing or broken baseline is an error, not an empty baseline.
	if err := Select(&findings.Result{}, Options{Baseline: filepath.Join(dir, "nosuchfile.json")}); err == nil || !strings.HasPrefix(err.Error(), "-baseline: ") {
		t.Errorf("a missing baseline: %v", err)
	}
}

// reformatMarkedCall adds spaces and a comment inside the first marked
// call in scheduler/, which changes its layout and not its tokens.
func reformatMarkedCall(t *testing.T, dir string, all []clitest.Marker) {
	t.Helper()
	for _, m := range all {
		if !strings.HasPrefix(m.File, "scheduler/") {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(m.File))
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
