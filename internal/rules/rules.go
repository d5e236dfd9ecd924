// Package rules defines the descriptor every lockvet check carries: its
// stable ID, analyzer name, title, rationale and examples. One descriptor
// feeds Analyzer.Doc, `lockvet -explain`, SARIF rules and the README table.
package rules

import (
	"fmt"
	"strings"
)

// Severity is how a finding is presented by hosts that have levels (SARIF).
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Rule describes one check. IDs never change meaning.
type Rule struct {
	ID       string   // "LV101"
	Name     string   // analyzer name, "setnxexpire"
	Title    string   // one line, no trailing period
	Why      string   // what goes wrong in production, and why
	Fix      string   // how to fix it by hand, and what the suggested fix does
	Bad      string   // a short Go example that is reported
	Good     string   // the same code written correctly
	Since    string   // lockvet version that introduced the check
	Severity Severity // default level
	CWE      []string // e.g. "CWE-667"
}

// BaseURL is where each rule's documentation lives; a rule's anchor is its
// lower-cased ID.
const BaseURL = "https://github.com/lockvet/lockvet/blob/main/docs/checks.md"

// URL is the rule's documentation address.
func (r *Rule) URL() string { return BaseURL + "#" + strings.ToLower(r.ID) }

// Doc renders the analyzer documentation: first line "name: title", then the
// rationale, fix advice and examples, as go/analysis expects.
func (r *Rule) Doc() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%s)\n\n", r.Name, r.Title, r.ID)
	b.WriteString(strings.TrimSpace(r.Why))
	b.WriteString("\n\n")
	b.WriteString(strings.TrimSpace(r.Fix))
	b.WriteString("\n")
	if r.Bad != "" {
		b.WriteString("\nReported:\n\n")
		b.WriteString(indent(r.Bad))
	}
	if r.Good != "" {
		b.WriteString("\nCorrect:\n\n")
		b.WriteString(indent(r.Good))
	}
	return b.String()
}

func indent(code string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.Trim(code, "\n"), "\n") {
		if line == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("\t" + line + "\n")
	}
	return b.String()
}
