package output

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/findings"
)

// sarifOf is res as a SARIF log, validated against the schema, with
// enabled as the checks that ran (every check when nil).
func sarifOf(t *testing.T, res *findings.Result, enabled []*analysis.Analyzer) clitest.SARIFLog {
	t.Helper()
	if enabled == nil {
		var err error
		if enabled, err = analyzer.Analyzers(nil); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := SARIF(&b, res, SrcRoot(clitest.ExampleDir()), enabled); err != nil {
		t.Fatal(err)
	}
	return clitest.ParseSARIF(t, b.String())
}

// TestSARIF: the SARIF output of the example module validates against the
// schema, has one rule per check, and its results are the marked lines,
// with regions, related locations, fixes, empty suppressions and unique
// fingerprints.
func TestSARIF(t *testing.T) {
	t.Parallel()
	log := sarifOf(t, clitest.Example(t), nil)
	run := log.Runs[0]

	rules := analyzer.Rules()
	got := run.Tool.Driver.Rules
	if run.Tool.Driver.Name != "lockvet" || len(got) != len(rules) {
		t.Fatalf("driver %q with %d rules, want lockvet with %d", run.Tool.Driver.Name, len(got), len(rules))
	}
	for i, want := range rules {
		g := got[i]
		if g.ID != want.ID || g.Name != want.Name || g.ShortDescription.Text != want.Title ||
			g.FullDescription.Text == "" || g.Help.Text == "" || !strings.Contains(g.Help.Markdown, "```go") ||
			g.HelpURI != want.URL() || g.Default.Level != string(want.Severity) || !g.Default.Enabled {
			t.Errorf("rule %d = %+v, want %s", i, g, want.ID)
		}
		for _, cwe := range want.CWE {
			if !slices.Contains(g.Properties.Tags, cwe) || !slices.Contains(g.Properties.Tags, "external/cwe/"+strings.ToLower(cwe)) {
				t.Errorf("rule %s: tags %q lack %s", g.ID, g.Properties.Tags, cwe)
			}
		}
	}
	if !slices.ContainsFunc(got, func(r clitest.SARIFRule) bool { return slices.Contains(r.Properties.Tags, "CWE-667") }) {
		t.Error("no rule is tagged CWE-667")
	}

	base, ok := run.OriginalURIBaseIDs[srcRootID]
	if !ok || base.URI != fileURI(SrcRoot(clitest.ExampleDir()))+"/" {
		t.Errorf("originalUriBaseIds = %+v", run.OriginalURIBaseIDs)
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations = %+v", run.Invocations)
	}

	var found []clitest.Marker
	prints := map[string]bool{}
	related, fixes := 0, 0
	for _, res := range run.Results {
		found = append(found, res.Marker(t, SrcRoot(clitest.ExampleDir()), clitest.ExampleDir()))
		if res.RuleIndex == nil || rules[*res.RuleIndex].ID != res.RuleID || res.Level != string(rules[*res.RuleIndex].Severity) {
			t.Errorf("%s: ruleIndex %v, level %q", res.RuleID, res.RuleIndex, res.Level)
		}
		reg := res.Locations[0].PhysicalLocation.Region
		if reg.StartColumn < 1 || reg.EndLine < reg.StartLine || reg.EndLine == reg.StartLine && reg.EndColumn <= reg.StartColumn {
			t.Errorf("%s: bad region %+v", res.RuleID, reg)
		}
		if len(res.Suppressions) != 0 {
			t.Errorf("%s: suppressed without a directive: %+v", res.RuleID, res.Suppressions)
		}
		fp := res.PartialFingerprints[FingerprintKey]
		if fp == "" || prints[fp] {
			t.Errorf("%s: fingerprint %q missing or not unique", res.RuleID, fp)
		}
		prints[fp] = true
		for _, rl := range res.RelatedLocations {
			related++
			if rl.Message == nil || rl.Message.Text == "" || rl.ID < 1 || rl.PhysicalLocation.ArtifactLocation.URIBaseID != srcRootID {
				t.Errorf("%s: bad related location %+v", res.RuleID, rl)
			}
		}
		for _, fx := range res.Fixes {
			fixes++
			if fx.Description.Text == "" || len(fx.ArtifactChanges) == 0 || len(fx.ArtifactChanges[0].Replacements) == 0 {
				t.Errorf("%s: bad fix %+v", res.RuleID, fx)
			}
		}
	}
	clitest.SameMarkers(t, found, clitest.Markers(t, clitest.ExampleDir(), clitest.MarkerSet{}))
	if related == 0 || fixes == 0 {
		t.Errorf("%d related locations, %d fixes: want some of each", related, fixes)
	}

	// -checks: every rule is listed, the ones that did not run disabled.
	only, err := analyzer.Analyzers(&analyzer.Config{Checks: []string{rules[0].ID}})
	if err != nil {
		t.Fatal(err)
	}
	log = sarifOf(t, clitest.Example(t), only)
	for _, rule := range log.Runs[0].Tool.Driver.Rules {
		if rule.Default.Enabled != (rule.ID == rules[0].ID) {
			t.Errorf("-checks %s: rule %s enabled = %v", rules[0].ID, rule.ID, rule.Default.Enabled)
		}
	}
}

// TestSARIFClean: no findings is an empty results list, exit 0.
func TestSARIFClean(t *testing.T) {
	t.Parallel()
	res := clitest.Cached(t, clitest.ExampleDir(), "./internal/...")
	var b bytes.Buffer
	if err := SARIF(&b, res, SrcRoot(clitest.ExampleDir()), nil); err != nil {
		t.Fatal(err)
	}
	log := clitest.ParseSARIF(t, b.String())
	if n := len(log.Runs[0].Results); n != 0 || !strings.Contains(b.String(), `"results": []`) {
		t.Errorf("%d results, want an empty list", n)
	}
}

// TestSARIFErrors: a broken package makes the invocation unsuccessful,
// with the error as a notification, and still lists the other findings.
func TestSARIFErrors(t *testing.T) {
	t.Parallel()
	log := sarifOf(t, clitest.Cached(t, clitest.BrokenDir(), "./..."), nil)
	inv := log.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful || len(inv.Notifications) == 0 || !strings.Contains(inv.Notifications[0].Message.Text, "bad/bad.go:8:") {
		t.Errorf("invocation = %+v", inv)
	}
	var got []clitest.Marker
	for _, res := range log.Runs[0].Results {
		got = append(got, res.Marker(t, SrcRoot(clitest.BrokenDir()), clitest.BrokenDir()))
	}
	clitest.SameMarkers(t, got, clitest.Markers(t, clitest.BrokenDir(), clitest.MarkerSet{}))
}

func TestColumnUTF16(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x.go")
	src := "s := \"é𝄞\"; x\n"
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res := &findings.Result{}
	off := strings.Index(src, "x\n")
	// "s := \"" is 6 units, é one, 𝄞 two (a surrogate pair), "\"; " three.
	if got := column(res, token.Position{Filename: name, Offset: off, Line: 1, Column: off + 1}); got != 13 {
		t.Errorf("column = %d, want 13 (byte column %d)", got, off+1)
	}
	// An unreadable file keeps the byte column.
	if got := column(res, token.Position{Filename: filepath.Join(dir, "none.go"), Offset: 4, Line: 1, Column: 5}); got != 5 {
		t.Errorf("column without source = %d", got)
	}
}

func TestArtifactLocation(t *testing.T) {
	root := filepath.FromSlash("/repo")
	if filepath.Separator != '/' {
		t.Skip("POSIX paths")
	}
	for _, tc := range []struct{ file, uri, base string }{
		{"/repo/a/b.go", "a/b.go", srcRootID},
		{"/repo/a b/c%d.go", "a%20b/c%25d.go", srcRootID},
		{"/repo/x:y.go", "./x:y.go", srcRootID},
		{"/elsewhere/z.go", "file:///elsewhere/z.go", ""},
	} {
		got := artifactLocation(root, tc.file)
		if got.URI != tc.uri || got.URIBaseID != tc.base {
			t.Errorf("artifactLocation(%q) = %+v, want %s %s", tc.file, got, tc.uri, tc.base)
		}
	}
}

func TestUnwrap(t *testing.T) {
	if got, want := unwrap("\nOne\ntwo  three.\n\nFour\n"), "One two three.\n\nFour"; got != want {
		t.Errorf("unwrap = %q, want %q", got, want)
	}
}
