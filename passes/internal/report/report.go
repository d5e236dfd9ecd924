// Package report is how every lockvet check reports: it stamps the rule's
// ID and documentation URL on the diagnostic and drops findings in files
// the configuration excludes (generated code, by default).
package report

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
)

// Reporter reports one rule's findings for one pass.
type Reporter struct {
	pass      *analysis.Pass
	rule      *rules.Rule
	cfg       *lvconfig.Config
	generated map[*ast.File]bool
}

// New returns a Reporter for rule in pass.
func New(pass *analysis.Pass, rule *rules.Rule, cfg *lvconfig.Config) *Reporter {
	return &Reporter{pass: pass, rule: rule, cfg: cfg}
}

// Report reports d unless its file is excluded.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if r.excluded(d) {
		return
	}
	d.Category = r.rule.ID
	if d.URL == "" {
		d.URL = r.rule.URL()
	}
	r.pass.Report(d)
}

func (r *Reporter) excluded(d analysis.Diagnostic) bool {
	if r.cfg != nil && r.cfg.IncludeGenerated {
		return false
	}
	if r.generated == nil {
		r.generated = map[*ast.File]bool{}
		for _, f := range r.pass.Files {
			r.generated[f] = ast.IsGenerated(f)
		}
	}
	for f, gen := range r.generated {
		if gen && f.FileStart <= d.Pos && d.Pos <= f.FileEnd {
			return true
		}
	}
	return false
}
