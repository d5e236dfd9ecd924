package main

import (
	"bytes"
	"encoding/json"
	"go/token"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lockvet/lockvet/analyzer"
)

// The SARIF 2.1.0 schema, as OASIS publishes it, is a copy in testdata so
// that the test runs in any checkout.
var schemaValidator = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	return c.Compile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
})

// validSARIF checks out against the OASIS schema.
func validSARIF(t *testing.T, out string) {
	t.Helper()
	sch, err := schemaValidator()
	if err != nil {
		t.Fatalf("compiling the SARIF schema: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("SARIF output is not JSON: %v\n%s", err, out)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF output does not validate against the 2.1.0 schema: %v", err)
	}
}

// sarifOut is the part of a SARIF log the tests read.
type sarifOut struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string         `json:"name"`
				Rules []sarifOutRule `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		OriginalURIBaseIDs map[string]struct {
			URI string `json:"uri"`
		} `json:"originalUriBaseIds"`
		Invocations []struct {
			ExecutionSuccessful bool `json:"executionSuccessful"`
			Notifications       []struct {
				Message struct{ Text string }
			} `json:"toolExecutionNotifications"`
		} `json:"invocations"`
		Results []sarifOutResult `json:"results"`
	} `json:"runs"`
}

type sarifOutRule struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	ShortDescription struct{ Text string }
	FullDescription  struct{ Text string }
	Help             struct{ Text, Markdown string }
	HelpURI          string `json:"helpUri"`
	Default          struct {
		Enabled bool   `json:"enabled"`
		Level   string `json:"level"`
	} `json:"defaultConfiguration"`
	Properties struct {
		Tags []string `json:"tags"`
	} `json:"properties"`
}

type sarifOutLocation struct {
	ID               int `json:"id"`
	Message          *struct{ Text string }
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
			EndLine     int `json:"endLine"`
			EndColumn   int `json:"endColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

type sarifOutResult struct {
	RuleID           string `json:"ruleId"`
	RuleIndex        *int   `json:"ruleIndex"`
	Level            string `json:"level"`
	Message          struct{ Text string }
	Locations        []sarifOutLocation `json:"locations"`
	RelatedLocations []sarifOutLocation `json:"relatedLocations"`
	Fixes            []struct {
		Description     struct{ Text string }
		ArtifactChanges []struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
			Replacements []json.RawMessage `json:"replacements"`
		} `json:"artifactChanges"`
	} `json:"fixes"`
	Suppressions []struct {
		Kind          string `json:"kind"`
		Justification string `json:"justification"`
	} `json:"suppressions"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

// marker is the result's primary location as a marker, its URI relative
// to the module in dir.
func (r sarifOutResult) marker(t *testing.T, dir string) marker {
	t.Helper()
	loc := r.Locations[0].PhysicalLocation
	uri, err := url.PathUnescape(loc.ArtifactLocation.URI)
	if err != nil || loc.ArtifactLocation.URIBaseID != srcRootID {
		t.Fatalf("bad artifact location %+v", loc.ArtifactLocation)
	}
	abs := filepath.Join(srcRoot(dir), filepath.FromSlash(uri))
	rel, err := filepath.Rel(dir, abs)
	if err != nil || !filepath.IsLocal(rel) {
		t.Fatalf("%s is not in %s", abs, dir)
	}
	return marker{filepath.ToSlash(rel), loc.Region.StartLine, r.RuleID}
}

func parseSARIF(t *testing.T, out string) sarifOut {
	t.Helper()
	validSARIF(t, out)
	var log sarifOut
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	return log
}

// TestSARIF: -format sarif on the example module validates against the
// schema, has one rule per check, and its results are the marked lines,
// with regions, related locations, fixes, empty suppressions and unique
// fingerprints.
func TestSARIF(t *testing.T) {
	t.Parallel()
	r := lockvet(t, exampleDir, "-format", "sarif", "./...")
	r.wantCode(t, exitFindings)
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
	log := parseSARIF(t, r.stdout)
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
	if !slices.ContainsFunc(got, func(r sarifOutRule) bool { return slices.Contains(r.Properties.Tags, "CWE-667") }) {
		t.Error("no rule is tagged CWE-667")
	}

	base, ok := run.OriginalURIBaseIDs[srcRootID]
	if !ok || base.URI != fileURI(srcRoot(exampleDir))+"/" {
		t.Errorf("originalUriBaseIds = %+v", run.OriginalURIBaseIDs)
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations = %+v", run.Invocations)
	}

	var found []marker
	prints := map[string]bool{}
	related, fixes := 0, 0
	for _, res := range run.Results {
		found = append(found, res.marker(t, exampleDir))
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
		fp := res.PartialFingerprints[fingerprintKey]
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
	sameMarkers(t, found, markers(t, exampleDir, markerSet{}))
	if related == 0 || fixes == 0 {
		t.Errorf("%d related locations, %d fixes: want some of each", related, fixes)
	}

	// -checks: every rule is listed, the ones that did not run disabled.
	r = lockvet(t, exampleDir, "-format", "sarif", "-checks", rules[0].ID, "./...")
	log = parseSARIF(t, r.stdout)
	for _, rule := range log.Runs[0].Tool.Driver.Rules {
		if rule.Default.Enabled != (rule.ID == rules[0].ID) {
			t.Errorf("-checks %s: rule %s enabled = %v", rules[0].ID, rule.ID, rule.Default.Enabled)
		}
	}
}

// TestSARIFClean: no findings is an empty results list, exit 0.
func TestSARIFClean(t *testing.T) {
	t.Parallel()
	r := lockvet(t, exampleDir, "-format", "sarif", "./internal/...")
	r.wantCode(t, exitClean)
	log := parseSARIF(t, r.stdout)
	if n := len(log.Runs[0].Results); n != 0 || !strings.Contains(r.stdout, `"results": []`) {
		t.Errorf("%d results, want an empty list", n)
	}
}

// TestSARIFErrors: a broken package makes the invocation unsuccessful,
// with the error as a notification, and still lists the other findings.
func TestSARIFErrors(t *testing.T) {
	t.Parallel()
	r := lockvet(t, brokenDir, "-format", "sarif", "./...")
	r.wantCode(t, exitError)
	log := parseSARIF(t, r.stdout)
	inv := log.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful || len(inv.Notifications) == 0 || !strings.Contains(inv.Notifications[0].Message.Text, "bad/bad.go:8:") {
		t.Errorf("invocation = %+v", inv)
	}
	var got []marker
	for _, res := range log.Runs[0].Results {
		got = append(got, res.marker(t, brokenDir))
	}
	sameMarkers(t, got, markers(t, brokenDir, markerSet{}))
}

// suppressedCopy copies the example module and puts a lockvet:ignore
// directive above its first LV101 marker, which it returns.
func suppressedCopy(t *testing.T) (string, marker) {
	t.Helper()
	ms := markers(t, exampleDir, markerSet{ids: func(id string) bool { return id == "LV101" }})
	if len(ms) == 0 {
		t.Fatal("the example module has no LV101 marker")
	}
	m := ms[0]
	dir := exampleCopy(t)
	path := filepath.Join(dir, filepath.FromSlash(m.file))
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	indent := lines[m.line-1][:len(lines[m.line-1])-len(strings.TrimLeft(lines[m.line-1], "\t"))]
	directive := indent + "//lockvet:ignore LV101 -- the key is unique per job run, a stuck lock blocks nothing\n"
	lines = slices.Insert(lines, m.line-1, directive)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	m.line++
	return dir, m
}

// TestSuppression: a lockvet:ignore directive hides the finding from the
// text output, the exit status and go vet, and SARIF lists it as
// suppressed in source with the directive's reason.
func TestSuppression(t *testing.T) {
	dir, sup := suppressedCopy(t)
	var want []marker
	for _, m := range markers(t, dir, markerSet{}) {
		if m != sup {
			want = append(want, m)
		}
	}

	r := lockvet(t, dir, "./...")
	r.wantCode(t, exitFindings)
	sameMarkers(t, parseText(t, r.stdout), want)

	r = lockvet(t, dir, "-format", "sarif", "./...")
	r.wantCode(t, exitFindings)
	log := parseSARIF(t, r.stdout)
	var reported []marker
	suppressed := 0
	for _, res := range log.Runs[0].Results {
		m := res.marker(t, dir)
		if len(res.Suppressions) == 0 {
			reported = append(reported, m)
			continue
		}
		suppressed++
		s := res.Suppressions[0]
		if m != sup || len(res.Suppressions) != 1 || s.Kind != "inSource" || !strings.Contains(s.Justification, "unique per job run") {
			t.Errorf("suppressed result %s: %+v", m, res.Suppressions)
		}
		if res.PartialFingerprints[fingerprintKey] == "" {
			t.Errorf("suppressed result %s has no fingerprint", m)
		}
	}
	if suppressed != 1 {
		t.Errorf("%d suppressed results, want 1", suppressed)
	}
	sameMarkers(t, reported, want)

	// Only the suppressed finding: exit 0, as with text.
	only := lockvet(t, dir, "-format", "sarif", "-checks", "LV101", "./"+filepath.ToSlash(filepath.Dir(sup.file)))
	var left int
	for _, res := range parseSARIF(t, only.stdout).Runs[0].Results {
		if len(res.Suppressions) == 0 {
			left++
		}
	}
	if left == 0 {
		only.wantCode(t, exitClean)
	}

	// -sarif-suppressed=false leaves it out.
	r = lockvet(t, dir, "-format", "sarif", "-sarif-suppressed=false", "./...")
	r.wantCode(t, exitFindings)
	reported = nil
	for _, res := range parseSARIF(t, r.stdout).Runs[0].Results {
		if len(res.Suppressions) > 0 {
			t.Errorf("-sarif-suppressed=false: suppressed result %s", res.marker(t, dir))
		}
		reported = append(reported, res.marker(t, dir))
	}
	sameMarkers(t, reported, want)

	// go vet honours the directive too.
	t.Run("go vet", func(t *testing.T) {
		needSlow(t, govetHost)
		v := command(t, dir, "go", "vet", "-vettool="+lockvetBin, "-json", "./...")
		v.wantCode(t, 0)
		var vet []marker
		dec := json.NewDecoder(strings.NewReader(v.stdout))
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				t.Fatalf("go vet -json: %v\n%s", err, v.stdout)
			}
			m, _ := parseJSON(t, dir, string(raw))
			vet = append(vet, m...)
		}
		sameMarkers(t, vet, want)
	})
}

// fingerprintsOf maps each fingerprint of a SARIF run on dir to its rule.
func fingerprintsOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	r := lockvet(t, dir, "-format", "sarif", "./...")
	out := map[string]string{}
	for _, res := range parseSARIF(t, r.stdout).Runs[0].Results {
		out[res.PartialFingerprints[fingerprintKey]] = res.RuleID
	}
	return out
}

// shiftAll inserts lines at the top of every function of every Go file
// with a marker and after its imports, so that every finding moves down.
func shiftAll(t *testing.T, dir string) {
	t.Helper()
	files := map[string]bool{}
	for _, m := range markers(t, dir, markerSet{generated: true}) {
		files[m.file] = true
	}
	for file := range files {
		path := filepath.Join(dir, filepath.FromSlash(file))
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		inImports := false
		for line := range strings.Lines(string(src)) {
			out.WriteString(line)
			switch {
			case strings.HasPrefix(line, "import ("):
				inImports = true
			case inImports && line == ")\n":
				inImports = false
				out.WriteString("\n// Added above everything.\nvar _ = 0\n")
			case strings.HasPrefix(line, "func ") && strings.HasSuffix(line, "{\n"):
				out.WriteString("\t// added at the top of the function\n\n")
			}
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestColumnUTF16(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x.go")
	src := "s := \"é𝄞\"; x\n"
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res := &result{}
	off := strings.Index(src, "x\n")
	// "s := \"" is 6 units, é one, 𝄞 two (a surrogate pair), "\"; " three.
	if got := res.column(token.Position{Filename: name, Offset: off, Line: 1, Column: off + 1}); got != 13 {
		t.Errorf("column = %d, want 13 (byte column %d)", got, off+1)
	}
	// An unreadable file keeps the byte column.
	if got := res.column(token.Position{Filename: filepath.Join(dir, "none.go"), Offset: 4, Line: 1, Column: 5}); got != 5 {
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
