package main

import (
	"encoding/json"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reviewdog/reviewdog/parser"
)

// codeClimateOf runs -format codeclimate on dir and checks each issue
// against the fields GitLab's Code Quality report requires
// (docs.gitlab.com, "Code Quality report format": description,
// check_name, fingerprint, severity, location.path, location.lines.begin),
// with their types and allowed values. It returns the issues as markers
// and each fingerprint's marker.
func codeClimateOf(t *testing.T, dir string) ([]marker, map[string]marker) {
	t.Helper()
	r := lockvet(t, dir, "-format", "codeclimate", "./...")
	r.wantCode(t, exitFindings)
	var issues []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &issues); err != nil {
		t.Fatalf("-format codeclimate is not a JSON array: %v\n%s", err, r.stdout)
	}
	var got []marker
	prints := map[string]marker{}
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
		m := marker{strings.TrimPrefix(p, "testdata/"), int(begin), check}
		if _, dup := prints[fp]; dup {
			t.Errorf("issue %d: fingerprint %s given twice", i, fp)
		}
		prints[fp] = m
		got = append(got, m)
	}
	return got, prints
}

// TestCodeClimate: GitLab's required fields, the CLI's findings, and
// fingerprints that survive edits above the findings.
func TestCodeClimate(t *testing.T) {
	t.Parallel()
	dir := copyTree(t, exampleDir)
	want := parseText(t, lockvet(t, dir, "./...").stdout)
	got, before := codeClimateOf(t, dir)
	sameMarkers(t, got, want)

	shiftAll(t, dir)
	moved := parseText(t, lockvet(t, dir, "./...").stdout)
	_, after := codeClimateOf(t, dir)
	if !slices.Equal(slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after))) {
		t.Errorf("fingerprints changed with lines added above the findings:\nbefore %v\nafter  %v", before, after)
	}
	shifted := 0
	for fp, m := range after {
		if m.line != before[fp].line {
			shifted++
		}
	}
	if shifted == 0 || len(moved) != len(want) {
		t.Errorf("the edit moved %d of %d findings: the test proves nothing", shifted, len(after))
	}
}

// TestCheckstyle: reviewdog's Checkstyle parser (what reviewdog -f=checkstyle
// and the same format in Jenkins' warnings plugin read) reads the CLI's
// findings, with their columns, severities and check IDs.
func TestCheckstyle(t *testing.T) {
	t.Parallel()
	text := lockvet(t, exampleDir, "./...")
	want := parseText(t, text.stdout)
	r := lockvet(t, exampleDir, "-format", "checkstyle", "./...")
	r.wantCode(t, exitFindings)
	diags, err := parser.NewCheckStyleParser().Parse(strings.NewReader(r.stdout))
	if err != nil {
		t.Fatalf("reviewdog cannot read -format checkstyle: %v\n%s", err, r.stdout)
	}
	var got []marker
	cols := map[marker]int{}
	for _, d := range diags {
		id := strings.TrimPrefix(d.GetCode().GetValue(), "lockvet.")
		if !strings.HasPrefix(d.GetMessage(), id+": ") {
			t.Errorf("%s: message %q does not start with its ID", d.GetLocation().GetPath(), d.GetMessage())
		}
		if s := d.GetSeverity().String(); s != "ERROR" && s != "WARNING" {
			t.Errorf("%s: severity %s", d.GetLocation().GetPath(), s)
		}
		m := marker{strings.TrimPrefix(d.GetLocation().GetPath(), "testdata/"), int(d.GetLocation().GetRange().GetStart().GetLine()), id}
		got = append(got, m)
		cols[m] = int(d.GetLocation().GetRange().GetStart().GetColumn())
	}
	sameMarkers(t, got, want)
	for line := range strings.Lines(text.stdout) {
		if m := textLineRE.FindStringSubmatch(strings.TrimSuffix(line, "\n")); m != nil {
			key := marker{m[1], atoi(t, m[2]), m[4]}
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
