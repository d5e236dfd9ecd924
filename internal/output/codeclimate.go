package output

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/findings"
)

// -format codeclimate prints GitLab's Code Quality report: a JSON array
// of Code Climate issues, with the fields GitLab requires (description,
// check_name, fingerprint, severity, location.path, location.lines.begin)
// and the issue's type, categories and end line. The fingerprint is the
// SARIF one: it survives edits elsewhere in the file, so a merge request
// that moves code does not show its findings as fixed and new.
//
// Like -format checkstyle, it gives paths relative to the repository
// root, as -format sarif and github do, folds related positions into the
// message (gateMessage), and leaves out the findings a directive
// suppressed. Load errors go to stderr only: neither format has a place
// for a package that could not be analyzed.

type codeClimateIssue struct {
	Type        string              `json:"type"`
	CheckName   string              `json:"check_name"`
	Description string              `json:"description"`
	Categories  []string            `json:"categories"`
	Severity    string              `json:"severity"`
	Fingerprint string              `json:"fingerprint"`
	Location    codeClimateLocation `json:"location"`
}

type codeClimateLocation struct {
	Path  string           `json:"path"`
	Lines codeClimateLines `json:"lines"`
}

type codeClimateLines struct {
	Begin int `json:"begin"`
	End   int `json:"end"`
}

// codeClimateSeverity maps a rule's severity to GitLab's scale (info,
// minor, major, critical, blocker).
func codeClimateSeverity(rule string) string {
	if r := analyzer.Lookup(rule); r != nil && r.Severity == "error" {
		return "major"
	}
	return "minor"
}

// CodeClimate prints the findings of res as a Code Quality report.
func CodeClimate(w io.Writer, res *findings.Result, root string) error {
	_, prints := res.Fingerprinted()
	issues := []codeClimateIssue{} // [] rather than null with no finding
	for _, f := range res.Findings {
		fset := f.Pkg.Fset
		start, end := fset.Position(f.Diag.Pos), fset.Position(f.Diag.End)
		if !f.Diag.End.IsValid() || end.Line < start.Line {
			end = start
		}
		issues = append(issues, codeClimateIssue{
			Type:        "issue",
			CheckName:   f.Rule(),
			Description: gateMessage(res, root, f),
			Categories:  []string{"Bug Risk"},
			Severity:    codeClimateSeverity(f.Rule()),
			Fingerprint: prints[f],
			Location: codeClimateLocation{
				Path:  gatePath(root, start.Filename),
				Lines: codeClimateLines{Begin: start.Line, End: end.Line},
			},
		})
	}
	data, err := json.MarshalIndent(issues, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// gatePath is filename relative to root when it lies below it.
func gatePath(root, filename string) string {
	if rel, ok := relTo(root, filename); ok {
		return rel
	}
	return filename
}

// gateMessage (codeclimate's and checkstyle's) is f's message with its related positions folded in
// ("…; lock acquired here (billing/billing.go:32)") and its rule's page.
func gateMessage(res *findings.Result, root string, f *findings.Finding) string {
	var b strings.Builder
	b.WriteString(f.Diag.Message)
	fset := f.Pkg.Fset
	for _, r := range f.Diag.Related {
		p := fset.Position(r.Pos)
		fmt.Fprintf(&b, "; %s (%s:%d)", strings.TrimSpace(r.Message), gatePath(root, p.Filename), p.Line)
	}
	if r := analyzer.Lookup(f.Rule()); r != nil {
		b.WriteString(" (" + r.URL() + ")")
	}
	return b.String()
}
