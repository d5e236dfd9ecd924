package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/driver"
)

// options is the parsed command line.
type options struct {
	json    bool
	format  string // text, json, sarif, github, codeclimate or checkstyle
	ci      ciFlags
	fix     bool
	diff    bool
	explain string
	tests   bool
	dir     string
	version bool
	verbose bool
	config  driver.ConfigFlags // shared with go vet's tool
}

// ciFlags select which findings a run reports (internal/gates).
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

// errReported is a command-line error that has been printed already.
var errReported = errors.New("invalid command line")

// parseFlags parses the command line. On -h it returns flag.ErrHelp after
// printing the usage to stderr; on a mistake it prints it and returns
// errReported.
func parseFlags(args []string, stderr io.Writer) (*options, []string, error) {
	o := &options{tests: true}
	fs := flag.NewFlagSet("lockvet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&o.json, "json", false, "same as -format json")
	fs.StringVar(&o.format, "format", "text", "output `format`: text, json (go vet -json's shape; exit status 0 even with findings), sarif (SARIF 2.1.0, for code scanning), github (GitHub Actions annotations), codeclimate (GitLab Code Quality), checkstyle (Checkstyle XML, for Jenkins and reviewdog)")
	o.ci.register(fs)
	fs.BoolVar(&o.fix, "fix", false, "apply the first suggested fix of each finding; print the findings left")
	fs.BoolVar(&o.diff, "diff", false, "print the changes -fix would make as a unified diff; change no file")
	fs.StringVar(&o.explain, "explain", "", "print the documentation of a check (`ID` or name) and exit")
	fs.BoolVar(&o.tests, "test", true, "also analyze test files")
	fs.StringVar(&o.dir, "C", "", "run as if lockvet was started in `dir`")
	fs.BoolVar(&o.version, "V", false, "print the version and exit")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.BoolVar(&o.verbose, "v", false, "print on stderr how many packages were analyzed, how many failed, and the time taken")
	o.config.Register(fs)
	fs.Usage = func() {} // the full text only on -h
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(fs)
			return nil, nil, err
		}
		// The flag package printed the error.
		fmt.Fprintln(stderr, "run 'lockvet -h' for usage")
		return nil, nil, errReported
	}
	if err := o.checkFormat(); err != nil {
		fmt.Fprintf(stderr, "lockvet: %v\n", err)
		return nil, nil, errReported
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	return o, patterns, nil
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

func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, `lockvet finds Redis distributed-lock bugs in Go code.

Usage:
	lockvet [flags] [packages]        (default ./...)
	lockvet -explain LV101
	go vet -vettool=$(which lockvet) [packages]

Subcommands, for operators (lockvet SUBCOMMAND -h lists their flags):
`)
	for _, c := range subcommands {
		fmt.Fprintf(w, "\t%s\n\t    %s\n", c.usage, c.what)
	}
	fmt.Fprint(w, `	(live and release run the lockvet-live binary; docs/live.md)

Exit status: 0 no findings, 1 findings, 2 errors (with -json: 0 or 2).
CI (SARIF, annotations, baseline, -new-from-rev): see docs/ci.md.

Flags:
`)
	fs.PrintDefaults()
	fmt.Fprintln(w, "\nChecks:")
	for _, r := range analyzer.Rules() {
		fmt.Fprintf(w, "\t%s  %-14s %s\n", r.ID, r.Name, r.Title)
	}
}
