package analyzer

import (
	"go/token"

	"golang.org/x/tools/go/analysis"
)

// Suppression is a finding that an in-source directive
// (//lockvet:ignore ID -- reason, or //lockvet:file-ignore) suppressed.
// Hosts that can show suppressed findings (SARIF) list them as such.
type Suppression struct {
	Diagnostic analysis.Diagnostic // as it would have been reported
	Reason     string              // the directive's text after "--"
	Directive  token.Pos           // the directive comment
}

// Suppressions returns the findings that directives suppressed in one
// pass of a check built by Analyzers, given that pass's result (the
// checker's Action.Result). It returns nil for the results of other
// analyzers.
func Suppressions(result any) []Suppression {
	r, ok := result.(interface {
		EachSuppressed(func(analysis.Diagnostic, string, token.Pos))
	})
	if !ok {
		return nil
	}
	var out []Suppression
	r.EachSuppressed(func(d analysis.Diagnostic, reason string, directive token.Pos) {
		out = append(out, Suppression{Diagnostic: d, Reason: reason, Directive: directive})
	})
	return out
}
