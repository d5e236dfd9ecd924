package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/lockvet/lockvet/analyzer"
)

// -format codeclimate prints GitLab's Code Quality report: a JSON array
// of Code Climate issues, with the fields GitLab requires (description,
// check_name, fingerprint, severity, location.path, location.lines.begin)
// and the issue's type, categories and end line. The fingerprint is the
// SARIF one: it survives edits elsewhere in the file, so a merge request
// that moves code does not show its findings as fixed and new.
//
// -format checkstyle prints Checkstyle XML, which Jenkins' warnings plugin
// and reviewdog (-f=checkstyle) read: a <file> per file, an <error> per
// finding with line, column, severity, message and source
// ("lockvet.LV101").
//
// Both give paths relative to the repository root, as -format sarif and
// github do, fold related positions into the message, and leave out the
// findings a directive suppressed. Load errors go to stderr only: neither
// format has a place for a package that could not be analyzed.

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

// printCodeClimate prints the findings of res as a Code Quality report.
func printCodeClimate(w io.Writer, res *result, root string) error {
	_, prints := res.fingerprinted()
	issues := []codeClimateIssue{} // [] rather than null with no finding
	for _, f := range res.findings {
		fset := f.pkg.Fset
		start, end := fset.Position(f.diag.Pos), fset.Position(f.diag.End)
		if !f.diag.End.IsValid() || end.Line < start.Line {
			end = start
		}
		issues = append(issues, codeClimateIssue{
			Type:        "issue",
			CheckName:   f.rule(),
			Description: gateMessage(res, root, f),
			Categories:  []string{"Bug Risk"},
			Severity:    codeClimateSeverity(f.rule()),
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

type checkstyleReport struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr,omitempty"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// printCheckstyle prints the findings of res as Checkstyle XML, files in
// the order of their first finding (the findings are sorted by position).
func printCheckstyle(w io.Writer, res *result, root string) error {
	rep := checkstyleReport{Version: "4.3"}
	index := map[string]int{}
	for _, f := range res.findings {
		fset := f.pkg.Fset
		start := fset.Position(f.diag.Pos)
		name := gatePath(root, start.Filename)
		i, ok := index[name]
		if !ok {
			i = len(rep.Files)
			index[name] = i
			rep.Files = append(rep.Files, checkstyleFile{Name: name})
		}
		severity := "warning"
		if r := analyzer.Lookup(f.rule()); r != nil && r.Severity == "error" {
			severity = "error"
		}
		rep.Files[i].Errors = append(rep.Files[i].Errors, checkstyleError{
			Line:     start.Line,
			Column:   res.columnAt(fset, f.diag.Pos),
			Severity: severity,
			Message:  f.rule() + ": " + gateMessage(res, root, f),
			Source:   "lockvet." + f.rule(),
		})
	}
	data, err := xml.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, data)
	return err
}

// gatePath is filename relative to root when it lies below it.
func gatePath(root, filename string) string {
	if rel, ok := relTo(root, filename); ok {
		return rel
	}
	return filename
}

// gateMessage is f's message with its related positions folded in
// ("…; lock acquired here (billing/billing.go:32)") and its rule's page.
func gateMessage(res *result, root string, f *finding) string {
	var b strings.Builder
	b.WriteString(f.diag.Message)
	fset := f.pkg.Fset
	for _, r := range f.diag.Related {
		p := fset.Position(r.Pos)
		fmt.Fprintf(&b, "; %s (%s:%d)", strings.TrimSpace(r.Message), gatePath(root, p.Filename), p.Line)
	}
	if r := analyzer.Lookup(f.rule()); r != nil {
		b.WriteString(" (" + r.URL() + ")")
	}
	return b.String()
}
