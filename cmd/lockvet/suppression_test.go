package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/output"
)

// suppressedCopy copies the example module and puts a lockvet:ignore
// directive above its first LV101 clitest.Marker, which it returns.
func suppressedCopy(t *testing.T) (string, clitest.Marker) {
	t.Helper()
	ms := clitest.Markers(t, exampleDir, clitest.MarkerSet{IDs: func(id string) bool { return id == "LV101" }})
	if len(ms) == 0 {
		t.Fatal("the example module has no LV101 clitest.Marker")
	}
	m := ms[0]
	dir := clitest.ExampleCopy(t)
	path := filepath.Join(dir, filepath.FromSlash(m.File))
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	indent := lines[m.Line-1][:len(lines[m.Line-1])-len(strings.TrimLeft(lines[m.Line-1], "\t"))]
	directive := indent + "//lockvet:ignore LV101 -- the key is unique per job run, a stuck lock blocks nothing\n"
	lines = slices.Insert(lines, m.Line-1, directive)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	m.Line++
	return dir, m
}

// TestSuppression: a lockvet:ignore directive hides the finding from the
// text output, the exit status and go vet, and SARIF lists it as
// suppressed in source with the directive's reason.
func TestSuppression(t *testing.T) {
	dir, sup := suppressedCopy(t)
	var want []clitest.Marker
	for _, m := range clitest.Markers(t, dir, clitest.MarkerSet{}) {
		if m != sup {
			want = append(want, m)
		}
	}

	r := lockvet(t, dir, "./...")
	r.WantCode(t, driver.ExitFindings)
	clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), want)

	r = lockvet(t, dir, "-format", "sarif", "./...")
	r.WantCode(t, driver.ExitFindings)
	log := clitest.ParseSARIF(t, r.Stdout)
	var reported []clitest.Marker
	suppressed := 0
	for _, res := range log.Runs[0].Results {
		m := res.Marker(t, output.SrcRoot(dir), dir)
		if len(res.Suppressions) == 0 {
			reported = append(reported, m)
			continue
		}
		suppressed++
		s := res.Suppressions[0]
		if m != sup || len(res.Suppressions) != 1 || s.Kind != "inSource" || !strings.Contains(s.Justification, "unique per job run") {
			t.Errorf("suppressed result %s: %+v", m, res.Suppressions)
		}
		if res.PartialFingerprints[output.FingerprintKey] == "" {
			t.Errorf("suppressed result %s has no fingerprint", m)
		}
	}
	if suppressed != 1 {
		t.Errorf("%d suppressed results, want 1", suppressed)
	}
	clitest.SameMarkers(t, reported, want)

	// Only the suppressed finding: exit 0, as with text.
	only := lockvet(t, dir, "-format", "sarif", "-checks", "LV101", "./"+filepath.ToSlash(filepath.Dir(sup.File)))
	var left int
	for _, res := range clitest.ParseSARIF(t, only.Stdout).Runs[0].Results {
		if len(res.Suppressions) == 0 {
			left++
		}
	}
	if left == 0 {
		only.WantCode(t, driver.ExitClean)
	}

	// -sarif-suppressed=false leaves it out.
	r = lockvet(t, dir, "-format", "sarif", "-sarif-suppressed=false", "./...")
	r.WantCode(t, driver.ExitFindings)
	reported = nil
	for _, res := range clitest.ParseSARIF(t, r.Stdout).Runs[0].Results {
		if len(res.Suppressions) > 0 {
			t.Errorf("-sarif-suppressed=false: suppressed result %s", res.Marker(t, output.SrcRoot(dir), dir))
		}
		reported = append(reported, res.Marker(t, output.SrcRoot(dir), dir))
	}
	clitest.SameMarkers(t, reported, want)

	// go vet honours the directive too.
	t.Run("go vet", func(t *testing.T) {
		needSlow(t, govetHost)
		v := command(t, dir, "go", "vet", "-vettool="+lockvetBin, "-json", "./...")
		v.WantCode(t, 0)
		var vet []clitest.Marker
		dec := json.NewDecoder(strings.NewReader(v.Stdout))
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				t.Fatalf("go vet -json: %v\n%s", err, v.Stdout)
			}
			m, _ := clitest.ParseJSON(t, dir, string(raw))
			vet = append(vet, m...)
		}
		clitest.SameMarkers(t, vet, want)
	})
}
