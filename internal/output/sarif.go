package output

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/sarif"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/findings"
)

// -format sarif prints a SARIF 2.1.0 log (the OASIS standard that GitHub
// code scanning and other dashboards read). The leaf types come from
// honnef.co/go/tools/sarif (staticcheck's SARIF output); the types below
// extend the ones that lack fields lockvet fills: a rule's name, full
// description and tags, a result's rule index and partialFingerprints, an
// invocation's notifications, and a run's originalUriBaseIds and
// columnKind.

// srcRootID is the base of the artifact URIs: paths are relative to the
// repository (or, outside one, to the directory lockvet runs in).
const srcRootID = "%SRCROOT%"

// FingerprintKey names lockvet's fingerprint in partialFingerprints.
const FingerprintKey = "lockvetFinding/v1"

// sarifSchema is the schema URI written in the log: the OASIS standard's.
const sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

type sarifLog struct {
	Version string     `json:"version"`
	Schema  string     `json:"$schema"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                         `json:"tool"`
	Invocations        []sarifInvocation                 `json:"invocations"`
	OriginalURIBaseIDs map[string]sarif.ArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                            `json:"columnKind"`
	Results            []sarifResult                     `json:"results"` // [] when there are none
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	sarif.ReportingDescriptor
	Name            string        `json:"name"`
	FullDescription sarif.Message `json:"fullDescription"`
	Properties      struct {
		Tags      []string `json:"tags"`
		Precision string   `json:"precision"`
		// GitHub code scanning shows this as the alert's severity.
		ProblemSeverity string `json:"problem.severity"`
	} `json:"properties"`
}

type sarifResult struct {
	sarif.Result
	RuleIndex           *int              `json:"ruleIndex,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifInvocation struct {
	sarif.Invocation
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string        `json:"level"`
	Message sarif.Message `json:"message"`
}

// SARIF prints the findings and suppressed findings of res as a
// SARIF log. Artifact URIs are relative to root; enabled names the checks
// that ran; errors are the run's error lines.
func SARIF(w io.Writer, res *findings.Result, root string, enabled []*analysis.Analyzer) error {
	log := buildSARIF(res, root, enabled)
	data, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

func buildSARIF(res *findings.Result, root string, enabled []*analysis.Analyzer) *sarifLog {
	ran := map[string]bool{}
	for _, a := range enabled {
		ran[a.Name] = true
	}
	rules := analyzer.Rules()
	driver := sarifDriver{
		Name:           "lockvet",
		InformationURI: "https://github.com/lockvet/lockvet",
		Rules:          []sarifRule{},
	}
	if v := moduleVersion(); v != "" {
		driver.Version = v
		driver.SemanticVersion = strings.TrimPrefix(v, "v")
	}
	index := map[string]int{}
	for i, r := range rules {
		index[r.ID] = i
		driver.Rules = append(driver.Rules, sarifRuleOf(r, ran[r.Name]))
	}

	run := sarifRun{
		Tool:       sarifTool{driver},
		ColumnKind: "utf16CodeUnits",
		Results:    []sarifResult{},
	}
	if u := fileURI(root); u != "" {
		run.OriginalURIBaseIDs = map[string]sarif.ArtifactLocation{srcRootID: {URI: u + "/"}}
	}
	inv := sarifInvocation{Invocation: sarif.Invocation{ExecutionSuccessful: len(res.Errors) == 0}}
	for _, e := range res.Errors {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications,
			sarifNotification{Level: sarif.Error, Message: sarif.Message{Text: e}})
	}
	run.Invocations = []sarifInvocation{inv}

	all, prints := res.Fingerprinted()
	for _, f := range all {
		r := sarifResult{
			Result: sarif.Result{
				RuleID:       f.Rule(),
				Kind:         sarif.Fail,
				Level:        sarif.Warning,
				Message:      sarif.Message{Text: f.Diag.Message},
				Locations:    []sarif.Location{sarifLocation(res, root, f.Pkg.Fset, f.Diag.Pos, f.Diag.End)},
				Suppressions: []sarif.Suppression{},
			},
			PartialFingerprints: map[string]string{FingerprintKey: prints[f]},
		}
		if i, ok := index[f.Rule()]; ok {
			r.RuleIndex = &i
			r.Level = string(rules[i].Severity)
		}
		for j, rel := range f.Diag.Related {
			loc := sarifLocation(res, root, f.Pkg.Fset, rel.Pos, rel.End)
			loc.ID = j + 1
			loc.Message = &sarif.Message{Text: rel.Message}
			r.RelatedLocations = append(r.RelatedLocations, loc)
		}
		for _, fix := range f.Diag.SuggestedFixes {
			if editsOwnFiles(f, fix) { // as -json: not in cgo's translation
				r.Fixes = append(r.Fixes, sarifFix(res, root, f.Pkg.Fset, fix))
			}
		}
		if f.Reason != "" {
			r.Suppressions = append(r.Suppressions, sarif.Suppression{Kind: "inSource", Justification: f.Reason})
		}
		run.Results = append(run.Results, r)
	}
	return &sarifLog{Version: sarif.Version, Schema: sarifSchema, Runs: []sarifRun{run}}
}

func sarifRuleOf(r *analyzer.Rule, enabled bool) sarifRule {
	sr := sarifRule{
		ReportingDescriptor: sarif.ReportingDescriptor{
			ID:               r.ID,
			ShortDescription: sarif.Message{Text: r.Title},
			Help:             sarif.Message{Text: unwrap(r.Fix), Markdown: ruleMarkdown(r)},
			HelpURI:          r.URL(),
			DefaultConfiguration: sarif.ReportingConfiguration{
				Enabled: enabled,
				Level:   string(r.Severity),
			},
		},
		Name:            r.Name,
		FullDescription: sarif.Message{Text: unwrap(r.Why)},
	}
	sr.Properties.Tags = append([]string{"correctness", "concurrency", "redis"}, r.CWE...)
	for _, cwe := range r.CWE {
		// The form GitHub code scanning recognizes.
		sr.Properties.Tags = append(sr.Properties.Tags, "external/cwe/"+strings.ToLower(cwe))
	}
	sr.Properties.Precision = "high"
	sr.Properties.ProblemSeverity = string(r.Severity)
	return sr
}

// unwrap joins the lines of each paragraph of a rule's hard-wrapped
// text: viewers wrap plain-text messages themselves.
func unwrap(text string) string {
	var paras []string
	for p := range strings.SplitSeq(strings.TrimSpace(text), "\n\n") {
		paras = append(paras, strings.Join(strings.Fields(p), " "))
	}
	return strings.Join(paras, "\n\n")
}

// ruleMarkdown is a rule's help in Markdown: the fix, then the examples.
func ruleMarkdown(r *analyzer.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n**How to fix.** %s\n", strings.TrimSpace(r.Why), strings.TrimSpace(r.Fix))
	if r.Bad != "" {
		fmt.Fprintf(&b, "\nReported:\n\n```go\n%s\n```\n", strings.Trim(r.Bad, "\n"))
	}
	if r.Good != "" {
		fmt.Fprintf(&b, "\nCorrect:\n\n```go\n%s\n```\n", strings.Trim(r.Good, "\n"))
	}
	fmt.Fprintf(&b, "\n[%s documentation](%s)\n", r.ID, r.URL())
	return b.String()
}

// sarifLocation is the region pos..end. Without an end, the region is
// the rest of the line.
func sarifLocation(res *findings.Result, root string, fset *token.FileSet, pos, end token.Pos) sarif.Location {
	start := fset.Position(pos)
	reg := sarif.Region{StartLine: start.Line, StartColumn: columnAt(res, fset, pos)}
	if end.IsValid() && end > pos {
		stop := fset.Position(end)
		reg.EndLine, reg.EndColumn = stop.Line, columnAt(res, fset, end)
	}
	return sarif.Location{PhysicalLocation: sarif.PhysicalLocation{
		ArtifactLocation: artifactLocation(root, start.Filename),
		Region:           reg,
	}}
}

// sarifFix turns a suggested fix into artifact changes, one per file, by
// file name and offset (orderedEdits). As in -json, the edits are in the file the bytes
// are in, at their place there: a //line directive moves where a finding
// is reported, not the code a fix changes.
func sarifFix(res *findings.Result, root string, fset *token.FileSet, fix analysis.SuggestedFix) sarif.Fix {
	out := sarif.Fix{Description: sarif.Message{Text: fix.Message}, ArtifactChanges: []sarif.ArtifactChange{}}
	byFile := map[string]int{}
	for _, e := range orderedEdits(fset, fix.TextEdits) {
		start := fset.PositionFor(e.Pos, false)
		stop := fset.PositionFor(cmp.Or(e.End, e.Pos), false)
		i, ok := byFile[start.Filename]
		if !ok {
			i = len(out.ArtifactChanges)
			byFile[start.Filename] = i
			out.ArtifactChanges = append(out.ArtifactChanges, sarif.ArtifactChange{ArtifactLocation: artifactLocation(root, start.Filename)})
		}
		ch := &out.ArtifactChanges[i]
		ch.Replacements = append(ch.Replacements, sarif.Replacement{
			DeletedRegion: sarif.Region{
				StartLine: start.Line, StartColumn: column(res, start),
				EndLine: stop.Line, EndColumn: column(res, stop),
			},
			InsertedContent: sarif.ArtifactContent{Text: string(e.NewText)},
		})
	}
	return out
}

// moduleVersion is the version of the lockvet module this binary was
// built from, or "" for a development build.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" || bi.Main.Version == "(devel)" {
		return ""
	}
	return bi.Main.Version
}
