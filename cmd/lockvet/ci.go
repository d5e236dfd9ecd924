package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/lockvet/lockvet/analyzer"
)

// What lockvet offers a CI gate: machine-readable output (-format sarif,
// -format github), in-source suppressions listed in SARIF, and two ways to
// gate only on new findings in code that has old ones: a baseline file
// and -new-from-rev.

// ciFlags select which findings a run reports.
type ciFlags struct {
	baseline      string // report only findings not in this baseline
	writeBaseline string // write the findings to this baseline and report none
	newFromRev    string // report only findings in code changed since this git revision
	// sarifSuppressed lists suppressed findings in SARIF, as suppressed.
	sarifSuppressed bool
}

func (c *ciFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.baseline, "baseline", "", "report only findings that are not in this baseline `file` (written by -write-baseline)")
	fs.StringVar(&c.writeBaseline, "write-baseline", "", "write the current findings to this baseline `file` and exit 0; print nothing")
	fs.BoolVar(&c.sarifSuppressed, "sarif-suppressed", true, "with -format sarif, also list the findings lockvet:ignore directives suppressed, marked as suppressed with the directive's reason")
	fs.StringVar(&c.newFromRev, "new-from-rev", "", "report only findings in functions changed since this git `revision` (git diff REV; untracked files count as changed)")
}

// checkFormat validates -format and its combinations with other flags.
func (o *options) checkFormat() error {
	switch {
	case !slices.Contains([]string{"text", "json", "sarif", "github", "codeclimate", "checkstyle"}, o.format):
		return fmt.Errorf("-format %q: want text, json, sarif, github, codeclimate or checkstyle", o.format)
	case o.json && o.format != "text" && o.format != "json":
		return fmt.Errorf("-json and -format %s contradict each other", o.format)
	case o.json:
		o.format = "json"
	}
	if o.format != "text" && (o.fix || o.diff) {
		name := "-format " + o.format
		if o.json {
			name = "-json"
		}
		return fmt.Errorf("%s cannot be combined with -fix or -diff", name)
	}
	if o.ci.writeBaseline != "" {
		switch {
		case o.fix || o.diff:
			return errors.New("-write-baseline cannot be combined with -fix or -diff")
		case o.ci.newFromRev != "":
			return errors.New("-write-baseline records every finding; it cannot be combined with -new-from-rev")
		}
	}
	return nil
}

// path resolves a file named on the command line: relative to -C's
// directory, as the go command does.
func (s *session) path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(s.dir, name)
}

// selectNew drops the findings -baseline and -new-from-rev exclude, from
// the reported and the suppressed findings alike. It reports false, after
// printing why, when the baseline or git cannot be read.
func (s *session) selectNew(res *result) bool {
	c := s.o.ci
	if c.writeBaseline != "" {
		return true // record everything
	}
	if c.baseline != "" {
		base, err := readBaseline(s.path(c.baseline))
		if err != nil {
			s.fail("-baseline: %v", err)
			return false
		}
		res.findings = notInBaseline(res, res.findings, base)
		res.suppressed = notInBaseline(res, res.suppressed, base)
	}
	if c.newFromRev != "" {
		ch, err := gitChanges(s.dir, c.newFromRev)
		if err != nil {
			s.fail("%v", err)
			return false
		}
		res.findings = ch.newFindings(res.findings)
		res.suppressed = ch.newFindings(res.suppressed)
	}
	return true
}

// sarif prints the -format sarif output.
func (s *session) sarif(res *result) {
	if !s.o.ci.sarifSuppressed {
		res.suppressed = nil
	}
	if err := printSARIF(s.stdout, res, srcRoot(s.dir), s.analyzers); err != nil {
		s.fail("%v", err)
	}
	s.found(len(res.findings))
}

// gate prints the -format codeclimate or checkstyle output.
func (s *session) gate(res *result) {
	print := printCodeClimate
	if s.o.format == "checkstyle" {
		print = printCheckstyle
	}
	if err := print(s.stdout, res, srcRoot(s.dir)); err != nil {
		s.fail("%v", err)
	}
	s.found(len(res.findings))
}

// github prints the -format github output.
func (s *session) github(res *result) {
	printGitHub(s.stdout, res, srcRoot(s.dir))
	s.found(len(res.findings))
}

// writeBaseline writes the -write-baseline file.
func (s *session) writeBaseline(res *result) {
	name := s.o.ci.writeBaseline
	if err := writeBaseline(s.path(name), res, res.findings); err != nil {
		s.fail("-write-baseline: %v", err)
		return
	}
	fmt.Fprintf(s.stderr, "lockvet: wrote %d finding(s) to %s\n", len(res.findings), name)
}

// suppressedFindings are the findings the in-source directives of one
// root action suppressed.
func suppressedFindings(act *checker.Action) []*finding {
	var out []*finding
	for _, sp := range analyzer.Suppressions(act.Result) {
		out = append(out, &finding{
			pkg:      act.Package,
			analyzer: act.Analyzer,
			diag:     sp.Diagnostic,
			posn:     act.Package.Fset.Position(sp.Diagnostic.Pos),
			reason:   sp.Reason,
		})
	}
	return out
}

// compareFindings orders findings by position, then rule and message.
func compareFindings(a, b *finding) int {
	return cmp.Or(
		cmp.Compare(a.posn.Filename, b.posn.Filename),
		cmp.Compare(a.posn.Line, b.posn.Line),
		cmp.Compare(a.posn.Column, b.posn.Column),
		cmp.Compare(a.rule(), b.rule()),
		cmp.Compare(a.diag.Message, b.diag.Message))
}
