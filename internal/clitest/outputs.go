package clitest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lockvet/lockvet/analyzer"
)

// Readers of the command's outputs: each checks the output's shape and
// returns its findings as Markers.

// TextLineRE is one finding of the text output: file, line, column, ID,
// message.
var TextLineRE = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): (LV\d{3}): (\S.*)$`)

// RelatedLineRE is a related position under a finding.
var RelatedLineRE = regexp.MustCompile(`^\t(\S+\.go):(\d+):(\d+): (\S.*)$`)

// ParseText checks the shape of text output and returns its findings as
// markers, in output order.
func ParseText(t testing.TB, out string) []Marker {
	t.Helper()
	var got []Marker
	for line := range strings.Lines(out) {
		line = strings.TrimSuffix(line, "\n")
		if m := TextLineRE.FindStringSubmatch(line); m != nil {
			var n int
			fmt.Sscan(m[2], &n)
			got = append(got, Marker{m[1], n, m[4]})
			continue
		}
		if RelatedLineRE.MatchString(line) && len(got) > 0 {
			continue
		}
		t.Errorf("unexpected output line %q", line)
	}
	return got
}

// JSONDiag is a diagnostic as go vet -json prints it.
type JSONDiag struct {
	Category       string `json:"category"`
	Posn           string `json:"posn"`
	End            string `json:"end"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename string  `json:"filename"`
			Start    *int    `json:"start"`
			End      *int    `json:"end"`
			New      *string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
	Related []struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	} `json:"related"`
}

// PosnRE is a position of the JSON output: an absolute file, line, column.
var PosnRE = regexp.MustCompile(`^(/.+\.go):(\d+):(\d+)$`)

// ParseJSON decodes -json output, checks its shape and returns the
// findings as markers and the diagnostics.
func ParseJSON(t testing.TB, dir, out string) ([]Marker, []JSONDiag) {
	t.Helper()
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("-json output does not parse: %v\n%s", err, out)
	}
	var got []Marker
	var all []JSONDiag
	for pkg, byAnalyzer := range tree {
		for name, raw := range byAnalyzer {
			var diags []JSONDiag
			if err := json.Unmarshal(raw, &diags); err != nil {
				t.Errorf("%s/%s: not a list of diagnostics: %s", pkg, name, raw)
				continue
			}
			for _, d := range diags {
				r := analyzer.Lookup(d.Category)
				if r == nil || r.Name != name {
					t.Errorf("%s: category %q is not the ID of analyzer %s", d.Posn, d.Category, name)
				}
				m := PosnRE.FindStringSubmatch(d.Posn)
				if m == nil || !PosnRE.MatchString(d.End) || d.Message == "" {
					t.Errorf("bad diagnostic %+v", d)
					continue
				}
				for _, f := range d.SuggestedFixes {
					if f.Message == "" || len(f.Edits) == 0 {
						t.Errorf("%s: bad fix %+v", d.Posn, f)
					}
					for _, e := range f.Edits {
						if !filepath.IsAbs(e.Filename) || e.Start == nil || e.End == nil || e.New == nil || *e.Start > *e.End {
							t.Errorf("%s: bad edit %+v", d.Posn, e)
						}
					}
				}
				for _, rel := range d.Related {
					if !PosnRE.MatchString(rel.Posn) || rel.Message == "" {
						t.Errorf("%s: bad related %+v", d.Posn, rel)
					}
				}
				file, _ := filepath.Rel(dir, m[1])
				line, _ := strconv.Atoi(m[2])
				got = append(got, Marker{filepath.ToSlash(file), line, d.Category})
				all = append(all, d)
			}
		}
	}
	return got, all
}

// The SARIF 2.1.0 schema, as OASIS publishes it, is a copy in testdata so
// that the test runs in any checkout.
var schemaValidator = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	return c.Compile(filepath.Join(Root(), "internal", "clitest", "testdata", "sarif-schema-2.1.0.json"))
})

// validSARIF checks out against the OASIS schema.
func validSARIF(t testing.TB, out string) {
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

// SARIFLog is the part of a SARIF log the tests read.
type SARIFLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string      `json:"name"`
				Rules []SARIFRule `json:"rules"`
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
		Results []SARIFResult `json:"results"`
	} `json:"runs"`
}

// SARIFRule is a rule of a SARIF log.
type SARIFRule struct {
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

// SARIFLocation is a location of a SARIF result.
type SARIFLocation struct {
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

// SARIFResult is a result of a SARIF log.
type SARIFResult struct {
	RuleID           string `json:"ruleId"`
	RuleIndex        *int   `json:"ruleIndex"`
	Level            string `json:"level"`
	Message          struct{ Text string }
	Locations        []SARIFLocation `json:"locations"`
	RelatedLocations []SARIFLocation `json:"relatedLocations"`
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

// Marker is the result's primary location as a Marker, its URI (relative
// to root, %SRCROOT%) made relative to the module in dir.
func (r SARIFResult) Marker(t testing.TB, root, dir string) Marker {
	t.Helper()
	loc := r.Locations[0].PhysicalLocation
	uri, err := url.PathUnescape(loc.ArtifactLocation.URI)
	if err != nil || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
		t.Fatalf("bad artifact location %+v", loc.ArtifactLocation)
	}
	abs := filepath.Join(root, filepath.FromSlash(uri))
	rel, err := filepath.Rel(dir, abs)
	if err != nil || !filepath.IsLocal(rel) {
		t.Fatalf("%s is not in %s", abs, dir)
	}
	return Marker{filepath.ToSlash(rel), loc.Region.StartLine, r.RuleID}
}

// ParseSARIF validates out against the SARIF 2.1.0 schema and decodes it.
func ParseSARIF(t testing.TB, out string) SARIFLog {
	t.Helper()
	validSARIF(t, out)
	var log SARIFLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	return log
}
