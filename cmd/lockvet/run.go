package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
)

// Exit statuses.
const (
	exitClean    = 0
	exitFindings = 1
	exitError    = 2
)

// run is the command: it parses args, loads and analyzes the packages,
// prints what it found and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, patterns, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitClean
	}
	if err != nil {
		return exitError // parseFlags said why
	}
	switch {
	case o.version:
		fmt.Fprintln(stdout, versionString())
		return exitClean
	case o.explain != "":
		return explain(stdout, stderr, o.explain)
	}

	s := &session{o: o, patterns: patterns, stdout: stdout, stderr: stderr, printed: map[string]bool{}}
	s.analyzers, err = analyzer.Analyzers(o.config.analyzerConfig())
	if err != nil {
		return s.fail("%v", err)
	}
	if s.lock, err = analyzer.LockPackages(o.config.analyzerConfig()); err != nil {
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
	guard(s.analyzers)

	res := s.analyze()
	switch {
	case res == nil && s.loadErr != nil && o.format == "json":
		// As a package's error in go vet -json's tree, under the patterns.
		tree := map[string]map[string]jsonError{strings.Join(s.patterns, " "): {"lockvet": {s.loadErr.msg}}}
		if err := writeJSON(stdout, tree); err != nil {
			s.fail("%v", err)
		}
	case res == nil:
	case o.diff:
		s.diff(res)
	case o.ci.writeBaseline != "":
		s.writeBaseline(res)
	case o.fix:
		s.fix(res)
	case o.format == "json":
		if err := printJSON(stdout, res); err != nil {
			s.fail("%v", err)
		}
	case o.format == "sarif":
		s.sarif(res)
	case o.format == "github":
		s.github(res)
	case o.format == "codeclimate", o.format == "checkstyle":
		s.gate(res)
	default:
		printText(stdout, s.dir, res.findings)
		s.found(len(res.findings))
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
	loadErr   *loadError // the go command could not load the packages
}

// fail prints an error and sets the exit status to exitError.
func (s *session) fail(format string, args ...any) int {
	fmt.Fprintf(s.stderr, "lockvet: "+format+"\n", args...)
	s.status = exitError
	return s.status
}

// found records that n findings are reported.
func (s *session) found(n int) {
	if n > 0 && s.status == exitClean {
		s.status = exitFindings
	}
}

// analyze loads and analyzes the packages, prints the errors of the
// packages that failed (once: -fix analyzes twice) and keeps the findings
// -baseline and -new-from-rev select. It returns nil when nothing could
// be loaded.
func (s *session) analyze() *result {
	start := time.Now()
	res, err := analyze(s.dir, s.patterns, s.o.tests, s.analyzers, s.lock)
	if err != nil {
		errors.As(err, &s.loadErr)
		s.fail("%v", err)
		return nil
	}
	for _, e := range res.errors {
		if !s.printed[e] {
			s.printed[e] = true
			s.fail("%s", e)
		}
	}
	if !s.selectNew(res) {
		return nil
	}
	if s.o.verbose {
		fmt.Fprintf(s.stderr, "lockvet: analyzed %d packages (%d with errors), %d findings, in %.1fs\n",
			res.packages, res.broken, len(res.findings), time.Since(start).Seconds())
	}
	return res
}

// diff prints the changes -fix would make.
func (s *session) diff(res *result) {
	applied, err := applyFixes(s.dir, res.findings, false, s.stdout)
	if err != nil {
		s.fail("%v", err)
	}
	if applied.conflicts > 0 {
		fmt.Fprintf(s.stderr, "lockvet: %d fix(es) overlap other fixes and are left out; run lockvet -fix twice\n", applied.conflicts)
	}
	if n := countWithoutFix(res.findings); n > 0 {
		fmt.Fprintf(s.stderr, "lockvet: %d finding(s) have no suggested fix; run without -diff to list them\n", n)
	}
	s.found(len(res.findings))
}

// fix applies the fixes, then analyzes the packages again and prints what
// is left, at its place in the fixed files.
func (s *session) fix(res *result) {
	applied, err := applyFixes(s.dir, res.findings, true, s.stdout)
	if err != nil {
		s.fail("%v", err)
	}
	if applied.fixed > 0 {
		fmt.Fprintf(s.stderr, "lockvet: fixed %d finding(s) in %d file(s)\n", applied.fixed, applied.files)
		if res = s.analyze(); res == nil {
			return
		}
	}
	if applied.conflicts > 0 {
		fmt.Fprintf(s.stderr, "lockvet: %d fix(es) overlap other fixes and were skipped; run lockvet -fix again\n", applied.conflicts)
	}
	printText(s.stdout, s.dir, res.findings)
	s.found(len(res.findings))
}

// finding is one diagnostic of one analyzer on one package.
type finding struct {
	pkg      *packages.Package
	analyzer *analysis.Analyzer
	diag     analysis.Diagnostic
	posn     token.Position
	reason   string // for a suppressed finding, the directive's reason
}

// rule is the finding's rule ID, or the analyzer name when the diagnostic
// carries no category.
func (f *finding) rule() string { return cmp.Or(f.diag.Category, f.analyzer.Name) }

// result is what an analysis run produced.
type result struct {
	findings   []*finding        // deduplicated, sorted by position
	suppressed []*finding        // what lockvet:ignore directives suppressed, sorted
	sources    map[string][]byte // file contents, read on demand
	errors     []string          // one line per broken package or failed analysis
	packages   int               // root packages analyzed (test variants count once)
	broken     int               // root packages that failed to load or type-check
	// actionErrs are per-package errors for the JSON tree: package ID →
	// analyzer name → message.
	actionErrs map[string]map[string]string
}

// analyze loads patterns in dir and runs analyzers on them. lock tells the
// packages whose calls can be lock operations (analyzer.LockPackages). It
// fails only when nothing could be loaded; broken packages are listed in
// result.errors and the others are still analyzed.
func analyze(dir string, patterns []string, tests bool, analyzers []*analysis.Analyzer, lock func(string) bool) (*result, error) {
	l, err := load(dir, patterns, tests, lock)
	if err != nil {
		return nil, &loadError{patterns: patterns, msg: goCommandReason(err)}
	}
	if len(l.all) == 0 {
		return nil, &loadError{patterns: patterns, msg: fmt.Sprintf("%s matched no packages", strings.Join(patterns, " "))}
	}
	res := &result{actionErrs: map[string]map[string]string{}}
	testOnly := brokenByTests(l.all)
	pkgs := l.roots
	brokenRoots := packageErrors(dir, pkgs, res)
	for _, path := range testOnly {
		res.errors = append(res.errors, fmt.Sprintf("hint: %s does not compile with its test files; its other files were analyzed, and -test=false leaves test files out", path))
	}
	res.packages = len(pkgs)
	broken := map[*packages.Package]string{} // by linked copy
	for i, p := range pkgs {
		if msg, ok := brokenRoots[p]; ok {
			res.broken++
			broken[l.linked[i]] = msg
		}
	}

	graph, err := analyzeGraph(analyzers, l.linked)
	if err != nil {
		return nil, err
	}
	type key struct {
		posn, end token.Position
		rule, msg string
	}
	seen := map[key]bool{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			msg := act.Err.Error()
			if first, ok := broken[act.Package]; ok {
				msg = first // "analysis skipped due to errors in package"
			} else {
				res.errors = append(res.errors, fmt.Sprintf("%s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err))
			}
			m := res.actionErrs[act.Package.ID]
			if m == nil {
				m = map[string]string{}
				res.actionErrs[act.Package.ID] = m
			}
			m[act.Analyzer.Name] = msg
			continue
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			f := &finding{pkg: act.Package, analyzer: act.Analyzer, diag: d, posn: fset.Position(d.Pos)}
			k := key{f.posn, fset.Position(d.End), f.rule(), d.Message}
			if seen[k] {
				continue
			}
			seen[k] = true
			res.findings = append(res.findings, f)
		}
		for _, f := range suppressedFindings(act) {
			if k := (key{f.posn, fset.Position(f.diag.End), f.rule(), f.diag.Message}); !seen[k] {
				seen[k] = true
				res.suppressed = append(res.suppressed, f)
			}
		}
	}
	slices.SortStableFunc(res.suppressed, compareFindings)
	slices.SortStableFunc(res.findings, func(a, b *finding) int {
		return cmp.Or(
			cmp.Compare(a.posn.Filename, b.posn.Filename),
			cmp.Compare(a.posn.Line, b.posn.Line),
			cmp.Compare(a.posn.Column, b.posn.Column),
			cmp.Compare(a.rule(), b.rule()),
			cmp.Compare(a.diag.Message, b.diag.Message))
	})
	return res, nil
}

// loadError is a failure of the go command to load the packages at all:
// msg is its own reason (the module it could not get, and why).
type loadError struct {
	patterns []string
	msg      string
}

func (e *loadError) Error() string { return e.msg }

// goCommandReason returns the go command's own message from a
// go/packages load error ("err: exit status 1: stderr: go: …"): what go
// build or go vet would print.
func goCommandReason(err error) string {
	msg := err.Error()
	if _, stderr, ok := strings.Cut(msg, "stderr: "); ok && strings.TrimSpace(stderr) != "" {
		msg = stderr
	}
	return strings.TrimRight(msg, "\n ")
}

// brokenByTests returns the import paths of packages that load without
// their test files but not with them: their findings come from the
// package alone, and a hint names -test=false.
func brokenByTests(pkgs []*packages.Package) []string {
	byID := map[string]*packages.Package{}
	for _, p := range pkgs {
		byID[p.ID] = p
	}
	var out []string
	for _, p := range pkgs {
		if p.ID != p.PkgPath || len(p.Errors) > 0 || p.IllTyped {
			continue
		}
		in := byID[p.PkgPath+" ["+p.PkgPath+".test]"]
		ext := byID[p.PkgPath+"_test ["+p.PkgPath+".test]"]
		if in != nil && len(in.Errors) > 0 || ext != nil && len(ext.Errors) > 0 {
			out = append(out, p.PkgPath)
		}
	}
	slices.Sort(out)
	return out
}

// selectRoots drops packages whose files another root covers: with tests,
// go/packages returns p, "p [p.test]" (p's files plus its internal tests)
// and the generated test main "p.test". Like go vet, analyze only the test
// variant, unless it is broken and p is not.
func selectRoots(pkgs []*packages.Package) []*packages.Package {
	byID := map[string]*packages.Package{}
	paths := map[string]bool{}
	for _, p := range pkgs {
		byID[p.ID] = p
		paths[p.PkgPath] = true
	}
	var out []*packages.Package
	for _, p := range pkgs {
		if p.ID == p.PkgPath {
			if tv := byID[p.PkgPath+" ["+p.PkgPath+".test]"]; tv != nil && (len(tv.Errors) == 0 || len(p.Errors) > 0) {
				continue
			}
		}
		if p.Name == "main" && strings.HasSuffix(p.PkgPath, ".test") && paths[strings.TrimSuffix(p.PkgPath, ".test")] {
			continue // generated test main
		}
		out = append(out, p)
	}
	return out
}

// packageErrors records one line per broken package (its first error)
// and returns, for each broken root, that first error.
func packageErrors(dir string, roots []*packages.Package, res *result) map[*packages.Package]string {
	first := map[*packages.Package]string{}
	printed := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if len(p.Errors) == 0 {
			return
		}
		msg := firstError(dir, p.Errors)
		first[p] = msg
		name := cmp.Or(p.PkgPath, p.ID)
		line := name + ": " + msg
		if strings.HasPrefix(msg, "pattern "+name+":") {
			line = msg
		}
		if !printed[line] {
			printed[line] = true
			res.errors = append(res.errors, line)
		}
	})
	// A root that could not import a dependency the go command could not
	// load gets the go command's reason, not the type checker's
	// "could not import" (the JSON error of the package).
	for _, r := range roots {
		msg, ok := first[r]
		if !ok || !strings.Contains(msg, "could not import ") {
			continue
		}
		for _, imp := range r.Imports {
			if dep, ok := first[imp]; ok && strings.Contains(msg, "could not import "+imp.PkgPath+" ") {
				first[r] = "dependency " + imp.PkgPath + ": " + dep
				break
			}
		}
	}
	// A root that is broken only through a dependency gets that one's error.
	for _, r := range roots {
		if _, ok := first[r]; !ok && r.IllTyped {
			packages.Visit([]*packages.Package{r}, func(p *packages.Package) bool {
				if msg, ok := first[p]; ok && first[r] == "" {
					first[r] = "dependency " + p.PkgPath + ": " + msg
				}
				return first[r] == ""
			}, nil)
		}
	}
	return first
}

// firstError describes a package's first problem in one line, with its
// position relative to dir. Type and syntax errors are preferred over
// the go command's report of the same failure.
func firstError(dir string, errs []packages.Error) string {
	e, n := errs[0], 0
	for _, c := range errs {
		if c.Kind == packages.TypeError || c.Kind == packages.ParseError {
			if n == 0 {
				e = c
			}
			n++
		}
	}
	msg := errorText(dir, e)
	if n > 1 {
		msg += fmt.Sprintf(" (and %d more)", n-1)
	}
	return msg
}

// errorText is a package error in one line, its position relative to dir.
func errorText(dir string, e packages.Error) string {
	msg := e.Msg
	// The go command's messages start with a "# importpath" line.
	for line := range strings.Lines(msg) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "# ") {
			msg = line
			break
		}
	}
	msg = moduleHint(dir, msg)
	pos := e.Pos
	if pos == "" || pos == "-" {
		return msg
	}
	// pos is file:line:col or file:line.
	file, rest := pos, ""
	for range 2 {
		i := strings.LastIndexByte(file, ':')
		if i < 0 || strings.Trim(file[i+1:], "0123456789") != "" {
			break
		}
		file, rest = file[:i], file[i:]+rest
	}
	return relPath(dir, file) + rest + ": " + msg
}

// relPath is filename relative to dir when it lies below dir.
func relPath(dir, filename string) string {
	if rel, err := filepath.Rel(dir, filename); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return filename
}

// guard makes a panic in one of lockvet's analyzers an error of that
// analysis instead of a crash of the whole run. The analyzers are fresh
// values from analyzer.Analyzers, so changing them in place is safe;
// analyzers from x/tools (shared package-level values) are left alone.
func guard(analyzers []*analysis.Analyzer) {
	eachAnalyzer(analyzers, func(a *analysis.Analyzer) {
		fn := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer())
		if fn == nil || strings.HasPrefix(fn.Name(), "golang.org/x/tools/") {
			return
		}
		inner := a.Run
		a.Run = func(pass *analysis.Pass) (res any, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("internal error: %v (please report it with this stack)\n%s", r, debug.Stack())
				}
			}()
			return inner(pass)
		}
	})
}

// eachAnalyzer calls f once for each analyzer of as and of their
// requirements, requirements first.
func eachAnalyzer(as []*analysis.Analyzer, f func(*analysis.Analyzer)) {
	seen := map[*analysis.Analyzer]bool{}
	var visit func([]*analysis.Analyzer)
	visit = func(as []*analysis.Analyzer) {
		for _, a := range as {
			if seen[a] {
				continue
			}
			seen[a] = true
			visit(a.Requires)
			f(a)
		}
	}
	visit(as)
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
		return exitError
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
	return exitClean
}

// versionString is the module version lockvet was built from.
func versionString() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return fmt.Sprintf("lockvet %s %s", v, runtime.Version())
}
