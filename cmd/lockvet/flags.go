package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lockvet/lockvet/analyzer"
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
	config  configFlags
}

// configFlags are the flags that configure the analyzers. They are shared
// with the go vet mode, where go vet forwards them to the tool.
type configFlags struct {
	checks           listFlag
	disable          listFlag
	redisVersion     string
	includeGenerated bool
	wrappers         wrapperFlags // wrappers.go
}

func (c *configFlags) register(fs *flag.FlagSet) {
	fs.Var(&c.checks, "checks", "run only these checks: comma-separated `IDs` or names (LV101,setnxexpire)")
	fs.Var(&c.disable, "disable", "do not run these checks: comma-separated `IDs` or names")
	fs.StringVar(&c.redisVersion, "redis-version", "", "oldest Redis server the code runs against, as MAJOR.MINOR (`version`, e.g. 7.2 or 8.4); selects which fixes are offered")
	fs.BoolVar(&c.includeGenerated, "include-generated", false, "also report findings in generated files")
	c.wrappers.register(fs)
}

func (c *configFlags) analyzerConfig() *analyzer.Config {
	cfg := &analyzer.Config{
		Checks:           c.checks,
		Disable:          c.disable,
		RedisVersion:     c.redisVersion,
		IncludeGenerated: c.includeGenerated,
	}
	c.wrappers.apply(cfg)
	return cfg
}

// listFlag is a comma-separated list; repeating the flag adds to it.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			*l = append(*l, item)
		}
	}
	return nil
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
	o.config.register(fs)
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

func usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprint(w, `lockvet finds Redis distributed-lock bugs in Go code.

Usage:
	lockvet [flags] [packages]        (default ./...)
	lockvet -explain LV101
	go vet -vettool=$(which lockvet) [packages]

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
