// Package gates decides which findings a CI run reports and fails on: a
// baseline of accepted findings, written and read as a file
// (-write-baseline, -baseline; baseline.go), and the findings in code
// changed since a git revision (-new-from-rev; newfromrev.go). Select
// applies both to the findings that in-source directives suppressed as
// to the others, so that SARIF lists as suppressed only what the gates
// let through.
package gates

import (
	"fmt"

	"github.com/lockvet/lockvet/internal/findings"
)

// Options are the gates of one run.
type Options struct {
	Dir        string // the run's directory: where git runs for NewFromRev
	Baseline   string // the baseline file to subtract (a path git or the OS resolves), or ""
	NewFromRev string // the git revision whose changes count as new, or ""
}

// Select drops from res the findings, reported and suppressed alike, that
// the baseline accounts for or that lie outside the code changed since
// NewFromRev. Its error names the gate that could not be read.
func Select(res *findings.Result, o Options) error {
	if o.Baseline != "" {
		base, err := ReadBaseline(o.Baseline)
		if err != nil {
			return fmt.Errorf("-baseline: %v", err)
		}
		res.Findings = NotInBaseline(res, res.Findings, base)
		res.Suppressed = NotInBaseline(res, res.Suppressed, base)
	}
	if o.NewFromRev != "" {
		ch, err := GitChanges(o.Dir, o.NewFromRev)
		if err != nil {
			return err
		}
		res.Findings = ch.NewFindings(res.Findings)
		res.Suppressed = ch.NewFindings(res.Suppressed)
	}
	return nil
}
