package output

import (
	"encoding/json"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reviewdog/reviewdog/parser"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/findings"
)

// codeClimateOf prints res in the codeclimate format and checks each issue
// against the fields GitLab's Code Quality report requires
// (docs.gitlab.com, "Code Quality report format": description,
// check_name, fingerprint, severity, location.path, location.lines.begin),
// with their types and allowed values. It returns the issues as markers
// and each fingerprint's marker.
func codeClimateOf(t *testing.T, dir string, res *findings.Result) ([]clitest.Marker, map[string]clitest.Marker) {
	t.Helper()
	var b strings.Builder
	if err := CodeClimate(&b, res, SrcRoot(dir)); err != nil {
		t.Fatal(err)
	}
	var issues []map[string]any
	if err := json.Unmarshal([]byte(b.String()), &issues); err != nil {
		t.Fatalf("-format codeclimate is not a JSON array: %v\n%s", err, b.String())
	}
	var got []clitest.Marker
	prints := map[string]clitest.Marker{}
	for i, is := range issues {
		str := func(v any) string {
			s, ok := v.(string)
			if !ok || s == "" {
				t.Errorf("issue %d: want a non-empty string, got %#v in %v", i, v, is)
			}
			return s
		}
		str(is["description"])
		check := str(is["check_name"])
		fp := str(is["fingerprint"])
		if sev := str(is["severity"]); !slices.Contains([]string{"info", "minor", "major", "critical", "blocker"}, sev) {
			t.Errorf("issue %d: severity %q is not one of GitLab's", i, sev)
		}
		loc, _ := is["location"].(map[string]any)
		p := str(loc["path"])
		if path.IsAbs(p) || strings.HasPrefix(p, "..") {
			t.Errorf("issue %d: path %q is not relative to the repository", i, p)
		}
		lines, _ := loc["lines"].(map[string]any)
		begin, ok := lines["begin"].(float64)
		if !ok || begin < 1 || begin != float64(int(begin)) {
			t.Errorf("issue %d: location.lines.begin %#v is not a line number", i, lines["begin"])
		}
		// Paths are relative to the repository root; markers to the module.
		rel, _ := filepath.Rel(dir, filepath.Join(SrcRoot(dir), filepath.FromSlash(p)))
		m := clitest.Marker{File: filepath.ToSlash(rel), Line: int(begin), ID: check}
		if _, dup := prints[fp]; dup {
			t.Errorf("issue %d: fingerprint %s given twice", i, fp)
		}
		prints[fp] = m
		got = append(got, m)
	}
	return got, prints
}

// TestCodeClimate: GitLab's required fields, the driver's findings, and
// as fingerprints the findings' own (findings.Result.Fingerprinted),
// which survive edits above the findings: internal/gates' TestBaseline
// edits a copy of the example module and compares them.
func TestCodeClimate(t *testing.T) {
	t.Parallel()
	dir := clitest.ExampleDir()
	res := clitest.Example(t)
	want := clitest.FindingMarkers(dir, res.Findings)
	got, prints := codeClimateOf(t, dir, res)
	clitest.SameMarkers(t, got, want)
	_, fps := res.Fingerprinted()
	for i, f := range res.Findings {
		if m, ok := prints[fps[f]]; !ok || m != want[i] {
			t.Errorf("%v: fingerprint %s is not in the output at the finding (%v)", want[i], fps[f], m)
		}
	}
}

// TestCheckstyle: reviewdog's Checkstyle parser (what reviewdog -f=checkstyle
// and the same format in Jenkins' warnings plugin read) reads the
// findings, with their columns, severities and check IDs.
func TestCheckstyle(t *testing.T) {
	t.Parallel()
	exampleDir := clitest.ExampleDir()
	var text, b strings.Builder
	Text(&text, exampleDir, clitest.Example(t).Findings)
	want := clitest.ParseText(t, text.String())
	if err := Checkstyle(&b, clitest.Example(t), SrcRoot(exampleDir)); err != nil {
		t.Fatal(err)
	}
	diags, err := parser.NewCheckStyleParser().Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatalf("reviewdog cannot read -format checkstyle: %v\n%s", err, b.String())
	}
	var got []clitest.Marker
	cols := map[clitest.Marker]int{}
	for _, d := range diags {
		id := strings.TrimPrefix(d.GetCode().GetValue(), "lockvet.")
		if !strings.HasPrefix(d.GetMessage(), id+": ") {
			t.Errorf("%s: message %q does not start with its ID", d.GetLocation().GetPath(), d.GetMessage())
		}
		if s := d.GetSeverity().String(); s != "ERROR" && s != "WARNING" {
			t.Errorf("%s: severity %s", d.GetLocation().GetPath(), s)
		}
		m := clitest.Marker{File: strings.TrimPrefix(d.GetLocation().GetPath(), "testdata/"), Line: int(d.GetLocation().GetRange().GetStart().GetLine()), ID: id}
		got = append(got, m)
		cols[m] = int(d.GetLocation().GetRange().GetStart().GetColumn())
	}
	clitest.SameMarkers(t, got, want)
	for line := range strings.Lines(text.String()) {
		if m := clitest.TextLineRE.FindStringSubmatch(strings.TrimSuffix(line, "\n")); m != nil {
			key := clitest.Marker{File: m[1], Line: atoi(t, m[2]), ID: m[4]}
			if c, ok := cols[key]; ok && c != atoi(t, m[3]) {
				t.Errorf("%s: column %d, the text says %s", key, c, m[3])
			}
		}
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
