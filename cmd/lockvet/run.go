package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/applyfix"
	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/findings"
	"github.com/lockvet/lockvet/internal/gates"
	"github.com/lockvet/lockvet/internal/output"
)

// run is the command: it parses args, loads and analyzes the packages,
// prints what it found and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, patterns, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return driver.ExitClean
	}
	if err != nil {
		return driver.ExitError // parseFlags said why
	}
	switch {
	case o.version:
		fmt.Fprintln(stdout, versionString())
		return driver.ExitClean
	case o.explain != "":
		return explain(stdout, stderr, o.explain)
	}

	s := &session{o: o, patterns: patterns, stdout: stdout, stderr: stderr, printed: map[string]bool{}, module: &analyzer.Module{}}
	cfg := o.config.Config()
	cfg.Module = s.module
	s.analyzers, err = analyzer.Analyzers(cfg)
	if err != nil {
		return s.fail("%v", err)
	}
	if s.lock, err = analyzer.LockPackages(o.config.Config()); err != nil {
		return s.fail("%v", err)
	}
	if len(s.analyzers) == 0 {
		return s.fail("-checks and -disable leave no check to run")
	}
	if s.dir, err = filepath.Abs(cmp.Or(o.dir, ".")); err != nil {
		return s.fail("%v", err)
	}
	if fi, err := os.Stat(s.dir); err != nil || !fi.IsDir() {
		return s.fail("-C %s: not a directory", o.dir)
	}
	driver.Guard(s.analyzers)

	res := s.analyze()
	if err := s.module.Err(); err != nil {
		// Not the code's doing: say so, or the withheld fixes' reasons
		// ("not every caller is loaded") would read as the code's.
		fmt.Fprintf(s.stderr, "lockvet: warning: %v; fixes that change an exported function's callers were withheld\n", err)
	}
	root := output.SrcRoot(s.dir)
	switch {
	case res == nil && s.loadErr != nil && o.format == "json":
		s.check(output.JSONLoadError(stdout, s.patterns, s.loadErr.Msg))
	case res == nil:
	case o.diff:
		s.diff(res)
	case o.ci.writeBaseline != "":
		name := o.ci.writeBaseline
		if err := gates.WriteBaseline(s.path(name), res, res.Findings); err != nil {
			s.fail("-write-baseline: %v", err)
			break
		}
		fmt.Fprintf(s.stderr, "lockvet: wrote %d finding(s) to %s\n", len(res.Findings), name)
	case o.fix:
		s.fix(res)
	case o.format == "json":
		s.check(output.JSON(stdout, res))
	case o.format == "sarif":
		if !o.ci.sarifSuppressed {
			res.Suppressed = nil
		}
		s.found(res, output.SARIF(stdout, res, root, s.analyzers))
	case o.format == "github":
		output.GitHub(stdout, res, root)
		s.found(res, nil)
	case o.format == "codeclimate":
		s.found(res, output.CodeClimate(stdout, res, root))
	case o.format == "checkstyle":
		s.found(res, output.Checkstyle(stdout, res, root))
	default:
		output.Text(stdout, s.dir, res.Findings)
		s.found(res, nil)
	}
	return s.status
}

// session is one run of the command.
type session struct {
	o         *options
	dir       string // absolute
	patterns  []string
	analyzers []*analysis.Analyzer
	lock      func(path string) bool // analyzer.LockPackages
	stdout    io.Writer
	stderr    io.Writer
	printed   map[string]bool // error lines already printed
	status    int
	loadErr   *driver.LoadError // the go command could not load the packages
	// module is the analyzers' view of the loaded module, filled in by
	// each analysis (fixes that change a helper's signature edit its
	// callers in the module's other packages).
	module *analyzer.Module
}

// fail prints an error and sets the exit status to ExitError.
func (s *session) fail(format string, args ...any) int {
	fmt.Fprintf(s.stderr, "lockvet: "+format+"\n", args...)
	s.status = driver.ExitError
	return s.status
}

// check fails with err, if any.
func (s *session) check(err error) {
	if err != nil {
		s.fail("%v", err)
	}
}

// found records that res's findings are reported, once printing them
// returned err.
func (s *session) found(res *findings.Result, err error) {
	s.check(err)
	if len(res.Findings) > 0 && s.status == driver.ExitClean {
		s.status = driver.ExitFindings
	}
}

// path resolves a file named on the command line: relative to -C's
// directory, as the go command does.
func (s *session) path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(s.dir, name)
}

// analyze loads and analyzes the packages, prints the errors of the
// packages that failed (once: -fix analyzes twice) and keeps the findings
// -baseline and -new-from-rev select. It returns nil when nothing could
// be loaded.
func (s *session) analyze() *findings.Result {
	start := time.Now()
	res, err := analyzePackages(s)
	if err != nil {
		errors.As(err, &s.loadErr)
		s.fail("%v", err)
		return nil
	}
	for _, e := range res.Errors {
		if !s.printed[e] {
			s.printed[e] = true
			s.fail("%s", e)
		}
	}
	if c := s.o.ci; c.writeBaseline == "" { // -write-baseline records everything
		g := gates.Options{Dir: s.dir, NewFromRev: c.newFromRev}
		if c.baseline != "" {
			g.Baseline = s.path(c.baseline)
		}
		if err := gates.Select(res, g); err != nil {
			s.fail("%v", err)
			return nil
		}
	}
	if s.o.verbose {
		fmt.Fprintf(s.stderr, "lockvet: analyzed %d packages (%d with errors), %d findings, in %.1fs\n",
			res.Packages, res.Broken, len(res.Findings), time.Since(start).Seconds())
	}
	return res
}

// analyzePackages loads and analyzes the session's packages. The tests
// that run the command in their process analyze each unchanged module
// once (analyzeOnce in golden_test.go).
var analyzePackages = func(s *session) (*findings.Result, error) {
	return driver.Analyze(s.dir, s.patterns, s.o.tests, s.analyzers, s.lock, s.module)
}

// diff prints the changes -fix would make.
func (s *session) diff(res *findings.Result) {
	applied, err := applyfix.Findings(s.dir, res.Findings, false, s.stdout)
	s.check(err)
	if applied.Conflicts > 0 {
		fmt.Fprintf(s.stderr, "lockvet: %d fix(es) overlap other fixes and are left out; run lockvet -fix twice\n", applied.Conflicts)
	}
	if n := applyfix.CountWithoutFix(res.Findings); n > 0 {
		fmt.Fprintf(s.stderr, "lockvet: %d finding(s) have no suggested fix; run without -diff to list them\n", n)
	}
	s.found(res, nil)
}

// fix applies the fixes, then analyzes the packages again and prints what
// is left, at its place in the fixed files.
func (s *session) fix(res *findings.Result) {
	applied, err := applyfix.Findings(s.dir, res.Findings, true, s.stdout)
	s.check(err)
	if applied.Fixed > 0 {
		fmt.Fprintf(s.stderr, "lockvet: fixed %d finding(s) in %d file(s)\n", applied.Fixed, applied.Files)
		if res = s.analyze(); res == nil {
			return
		}
	}
	if applied.Conflicts > 0 {
		fmt.Fprintf(s.stderr, "lockvet: %d fix(es) overlap other fixes and were skipped; run lockvet -fix again\n", applied.Conflicts)
	}
	output.Text(s.stdout, s.dir, res.Findings)
	s.found(res, nil)
}

// explain prints a rule's documentation.
func explain(stdout, stderr io.Writer, idOrName string) int {
	r := analyzer.Lookup(idOrName)
	if r == nil {
		var ids []string
		for _, r := range analyzer.Rules() {
			ids = append(ids, r.ID)
		}
		fmt.Fprintf(stderr, "lockvet: unknown check %q (known: %s)\n", idOrName, strings.Join(ids, ", "))
		return driver.ExitError
	}
	fmt.Fprint(stdout, r.Doc())
	fmt.Fprintf(stdout, "\nSeverity: %s", r.Severity)
	if len(r.CWE) > 0 {
		fmt.Fprintf(stdout, "; %s", strings.Join(r.CWE, ", "))
	}
	if r.Since != "" {
		fmt.Fprintf(stdout, "; since lockvet %s", r.Since)
	}
	fmt.Fprintf(stdout, "\nDocumentation: %s\n", r.URL())
	return driver.ExitClean
}

// versionString is the module version lockvet was built from.
func versionString() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return fmt.Sprintf("lockvet %s %s", v, runtime.Version())
}
