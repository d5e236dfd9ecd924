// Command sweep runs lockvet over real modules nobody here wrote and
// writes what happened to docs/sweep.md: for each module the packages
// analysed, the findings, the errors and the time taken. It is the
// crash-and-noise gate: it fails when lockvet panics or hangs, when a
// package error carries no explanation, or when a finding has not been
// read and classified in notes.txt.
//
// Usage, from the repository root:
//
//	go run ./internal/sweep            # every module; writes docs/sweep.md
//	go run ./internal/sweep -quick     # the subset CI runs; writes no file
//	go run ./internal/sweep -apps      # the application modules: recall on labels.txt
//
// The modules and their pinned versions are in internal/sweep/modules.txt.
// Each is fetched with go mod download through the module proxy, copied
// to a writable temporary directory, and its dependencies downloaded.
// lockvet then runs there as
//
//	lockvet -v -json ./...
//
// (or on the package patterns the module's pkgs= tag names)
// with GOPROXY=off and, where the machine allows it, in a new network
// namespace with no interface but loopback (unshare -n): the analysis
// itself never needs the network. The standard library runs as the
// pattern std from an empty module.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	log := func(format string, args ...any) { fmt.Fprintf(os.Stderr, "sweep: "+format+"\n", args...) }
	code, err := sweep(os.Args[1:], log)
	if err != nil {
		log("%v", err)
		os.Exit(2)
	}
	os.Exit(code)
}

// options is the command line.
type options struct {
	quick   bool
	apps    bool
	list    string
	notes   string
	labels  string
	remarks string
	results string
	render  string
	out     string
	only    *regexp.Regexp
	timeout time.Duration
	work    string
	keep    bool
	lockvet string
	netns   string // "auto", "on", "off"
}

func sweep(args []string, log func(string, ...any)) (int, error) {
	var o options
	var only string
	flags := flag.NewFlagSet("sweep", flag.ContinueOnError)
	flags.BoolVar(&o.quick, "quick", false, "run only the modules tagged quick (the CI subset); write no report unless -o is given")
	flags.BoolVar(&o.apps, "apps", false, "run only the application modules (tagged app); write no report unless -o is given")
	flags.StringVar(&o.labels, "labels", "internal/sweep/labels.txt", "the `file` of labelled lock bugs and correct lock code (recall)")
	flags.StringVar(&o.list, "list", "internal/sweep/modules.txt", "the pinned module `file`")
	flags.StringVar(&o.notes, "notes", "internal/sweep/notes.txt", "the `file` that classifies findings and explains errors")
	flags.StringVar(&o.results, "results", "", "save the raw results to `file` after each module (JSON)")
	flags.StringVar(&o.render, "render", "", "run nothing: write the report from the raw results in `file` and the current notes")
	flags.StringVar(&o.remarks, "remarks", "internal/sweep/remarks.md", "hand-written `file` appended to the report")
	flags.StringVar(&o.out, "o", "", "write the report to `file` (default docs/sweep.md for a full sweep, none with -quick or -only)")
	flags.StringVar(&only, "only", "", "run only the modules whose path matches this `regexp`")
	flags.DurationVar(&o.timeout, "timeout", 15*time.Minute, "time allowed for lockvet on one module: past it, it counts as a hang")
	flags.StringVar(&o.work, "work", "", "work `dir` (default: a new temporary directory, removed at the end)")
	flags.BoolVar(&o.keep, "keep", false, "keep the work directory")
	flags.StringVar(&o.lockvet, "lockvet", "", "lockvet `binary` to run (default: build ./cmd/lockvet)")
	flags.StringVar(&o.netns, "netns", "auto", "run lockvet in a network namespace without network: auto (when unshare -n works), on, off")
	if err := flags.Parse(args); err != nil {
		return 2, nil
	}
	if flags.NArg() > 0 {
		return 0, fmt.Errorf("unexpected arguments %q", flags.Args())
	}
	if only != "" {
		re, err := regexp.Compile(only)
		if err != nil {
			return 0, err
		}
		o.only = re
	}
	if o.out == "" && !o.quick && !o.apps && o.only == nil {
		o.out = "docs/sweep.md"
	}

	mods, err := readModules(o.list)
	if err != nil {
		return 0, err
	}
	var selected []*module
	for _, m := range mods {
		if (!o.quick || m.quick) && (!o.apps || m.app) && (o.only == nil || o.only.MatchString(m.path)) {
			selected = append(selected, m)
		}
	}
	if len(selected) == 0 {
		return 0, errors.New("no module selected")
	}
	notes, err := readNotes(o.notes)
	if err != nil {
		return 0, err
	}
	labels, err := readLabels(o.labels)
	if err != nil {
		return 0, err
	}
	if err := labels.known(mods); err != nil {
		return 0, err
	}

	if o.render != "" {
		saved, err := loadResults(o.render)
		if err != nil {
			return 0, err
		}
		var keep []*module
		for _, m := range selected {
			if r := saved[m.String()]; r != nil {
				r.quick, r.app, r.pkgs, r.why = m.quick, m.app, m.pkgs, m.why
				keep = append(keep, r)
			} else {
				log("no saved result for %s", m)
			}
		}
		return finish(o, keep, notes, labels, false, "", log, 0)
	}
	if o.work == "" {
		if o.work, err = os.MkdirTemp("", "lockvet-sweep"); err != nil {
			return 0, err
		}
		if !o.keep {
			defer os.RemoveAll(o.work)
		}
	}
	if o.work, err = filepath.Abs(o.work); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(o.work, 0o755); err != nil {
		return 0, err
	}
	if o.lockvet == "" {
		o.lockvet = filepath.Join(o.work, "lockvet")
		log("building lockvet")
		if out, err := exec.Command("go", "build", "-o", o.lockvet, "./cmd/lockvet").CombinedOutput(); err != nil {
			return 0, fmt.Errorf("go build ./cmd/lockvet: %v\n%s", err, out)
		}
	} else if o.lockvet, err = filepath.Abs(o.lockvet); err != nil {
		return 0, err
	}
	netns := false
	switch o.netns {
	case "on":
		netns = true
	case "auto":
		netns = exec.Command("unshare", "-n", "true").Run() == nil
	case "off":
	default:
		return 0, fmt.Errorf("-netns %q: want auto, on or off", o.netns)
	}
	if netns {
		log("lockvet runs in a network namespace with no network")
	}

	goVersion := strings.TrimPrefix(runtime.Version(), "go")
	if out, err := exec.Command("go", "env", "GOVERSION").Output(); err == nil {
		goVersion = strings.TrimPrefix(strings.TrimSpace(string(out)), "go")
	}
	start := time.Now()
	for i, m := range selected {
		log("[%d/%d] %s", i+1, len(selected), m)
		m.run(o, netns, labels, log)
		log("    %d packages, %d findings, %d errors, %s%s", m.packages, len(m.findings), len(m.errors), m.elapsed.Round(time.Second), m.statusSuffix())
		for i, e := range m.errors {
			if i == maxLogged {
				log("    … and %d more errors", len(m.errors)-i)
				break
			}
			log("    error: %s", e.text)
		}
		if o.results != "" {
			if err := saveResults(o.results, selected[:i+1]); err != nil {
				return 0, err
			}
		}
	}
	return finish(o, selected, notes, labels, netns, goVersion, log, time.Since(start))
}

// maxLogged is how many error lines of a module the log shows as the
// module ends (all of them are in the report and the final check).
const maxLogged = 5

// finish classifies the results with the notes, writes the report and
// returns the exit status.
func finish(o options, selected []*module, notes *notes, labels *labels, netns bool, goVersion string, log func(string, ...any), elapsed time.Duration) (int, error) {
	for _, m := range selected {
		notes.apply(m)
		if goVersion == "" {
			goVersion = m.goVersion
		}
		if m.netns {
			netns = true
		}
	}
	sum := summarize(selected, o.quick)
	log("%s in %s", sum, elapsed.Round(time.Second))
	switch {
	case !o.quick || sum.unfetched == 0:
	case sum.unfetched == sum.modules:
		log("no module could be fetched through the module proxy (the reasons are above): the sweep checked nothing")
	default:
		log("%d of %d modules could not be fetched through the module proxy (the reasons are above): not a lockvet failure, but not checked either", sum.unfetched, sum.modules)
	}
	for _, n := range notes.unused(selected, o.quick || o.apps || o.only != nil) {
		log("note matches nothing: %s", n)
	}
	if o.out != "" {
		var buf bytes.Buffer
		remarks, err := os.ReadFile(o.remarks)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, err
		}
		writeReport(&buf, selected, notes, labels, sum, goVersion, netns, string(remarks))
		if err := os.WriteFile(o.out, buf.Bytes(), 0o644); err != nil {
			return 0, err
		}
		log("wrote %s", o.out)
	}
	if r := recallLine(selected, labels); r != "" {
		log("%s", r)
	}
	for _, m := range selected {
		for _, f := range m.findings {
			if f.note == nil {
				log("unreviewed finding: %s %s", m, f)
			}
		}
		for _, e := range m.errors {
			if e.note == nil && !(o.quick && m.unfetched) {
				log("unexplained error: %s: %s", m, e.text)
			}
		}
	}
	if !sum.ok() {
		return 1, nil
	}
	return 0, nil
}

// module is one line of modules.txt and what the sweep found in it.
type module struct {
	path, version string // version "" for std
	quick         bool
	app           bool     // an application module: a service that takes locks itself
	pkgs          []string // the package patterns lockvet runs on (default ./...)
	why           string

	packages  int
	broken    int
	findings  []*finding
	errors    []*lvError
	elapsed   time.Duration
	goVersion string // the Go version lockvet ran with
	netns     bool   // lockvet ran without network
	unfetched bool   // the module itself could not be fetched; lockvet did not run
	panicked  bool   // lockvet crashed, or an analyzer panicked
	hung      bool   // lockvet ran past the timeout
	status    string // lockvet's exit status, or what stopped it
}

func (m *module) String() string {
	if m.version == "" {
		return m.path
	}
	return m.path + "@" + m.version
}

func (m *module) statusSuffix() string {
	switch {
	case m.hung:
		return " — HANG"
	case m.panicked:
		return " — PANIC"
	case m.unfetched:
		return " — NOT FETCHED"
	}
	return ""
}

// finding is one lockvet diagnostic, its file relative to the module root.
type finding struct {
	file      string
	line, col int
	rule      string
	message   string
	related   []string
	note      *note
}

func (f *finding) String() string {
	return fmt.Sprintf("%s:%d:%d %s: %s", f.file, f.line, f.col, f.rule, f.message)
}

// lvError is one error lockvet reported, as one line.
type lvError struct {
	text string
	note *note
}

func readModules(file string) ([]*module, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var out []*module
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		line, why, _ := strings.Cut(line, "--")
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		m := &module{path: fields[0], why: strings.TrimSpace(why)}
		if p, v, ok := strings.Cut(fields[0], "@"); ok {
			m.path, m.version = p, v
		} else if fields[0] != "std" {
			return nil, fmt.Errorf("%s:%d: %s is not pinned (want module@version)", file, i+1, fields[0])
		}
		for _, tag := range fields[1:] {
			switch {
			case tag == "quick":
				m.quick = true
			case tag == "app":
				m.app = true
			case strings.HasPrefix(tag, "pkgs="):
				for p := range strings.SplitSeq(strings.TrimPrefix(tag, "pkgs="), ",") {
					if !strings.HasPrefix(p, "./") {
						return nil, fmt.Errorf("%s:%d: package pattern %q is not relative to the module (./…)", file, i+1, p)
					}
					m.pkgs = append(m.pkgs, p)
				}
			default:
				return nil, fmt.Errorf("%s:%d: unknown tag %q", file, i+1, tag)
			}
		}
		if seen[m.path] {
			return nil, fmt.Errorf("%s:%d: %s listed twice", file, i+1, m.path)
		}
		seen[m.path] = true
		out = append(out, m)
	}
	return out, nil
}

// goEnv is the environment of every go command and of lockvet: no
// workspace, the toolchain that runs the sweep, and no VCS stamping. The
// module proxy and checksum database are the machine's own (GOPROXY,
// GOSUMDB as go env sees them); lockvet's run turns both off.
func goEnv(extra ...string) []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOFLAGS", "GOWORK", "GOTOOLCHAIN":
			return true
		}
		return false
	})
	env = append(env, "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod -buildvcs=false")
	return append(env, extra...)
}

// prepare fetches the module, copies it to a writable directory and
// downloads what its packages and tests import. It returns the directory
// lockvet runs in and the pattern, or an error that ends this module.
func (m *module) prepare(o options, log func(string, ...any)) (dir string, patterns []string, err error) {
	base := filepath.Join(o.work, "src", strings.NewReplacer("/", "_", "@", "_").Replace(m.String()))
	if err := os.RemoveAll(base); err != nil {
		return "", nil, err
	}
	if m.version == "" { // std
		if err := os.MkdirAll(base, 0o755); err != nil {
			return "", nil, err
		}
		err := os.WriteFile(filepath.Join(base, "go.mod"), []byte("module sweep.test/std\n\ngo 1.26\n"), 0o644)
		return base, []string{"std"}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", m.String())
	cmd.Dir = o.work
	cmd.Env = goEnv()
	out, err := cmd.Output()
	var dl struct{ Dir, GoMod, Error string }
	if jerr := json.Unmarshal(out, &dl); jerr != nil || dl.Error != "" || dl.Dir == "" {
		why := cmp.Or(dl.Error, firstLine(stderrOf(err)), fmt.Sprint(err), fmt.Sprint(jerr))
		return "", nil, &fetchError{fmt.Errorf("go mod download %s: %s", m, why)}
	}
	if err := copyTree(dl.Dir, base); err != nil {
		return "", nil, err
	}
	if _, err := os.Stat(filepath.Join(base, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		// A module from before go.mod: use the one the proxy synthesized.
		data, err := os.ReadFile(dl.GoMod)
		if err != nil {
			return "", nil, err
		}
		if err := os.WriteFile(filepath.Join(base, "go.mod"), data, 0o644); err != nil {
			return "", nil, err
		}
	}
	// A module of a multi-module repository may replace its siblings by
	// relative paths, which the module zip does not hold: use the
	// required versions instead, as a user of the module does.
	if err := dropLocalReplaces(ctx, base); err != nil {
		return "", nil, err
	}
	// Dependencies: everything the packages and their tests import, with
	// go.sum completed, compiled once here so that lockvet's own time
	// (and its timeout) is not the build of the dependencies (cgo ones
	// such as sqlite take minutes). Failures here show again, explained,
	// when lockvet loads the packages.
	patterns = m.pkgs
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	for _, args := range [][]string{{"mod", "download"}, append([]string{"list", "-e", "-export", "-deps", "-test"}, patterns...)} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = base
		cmd.Env = goEnv()
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		if err := cmd.Run(); err != nil {
			log("    go %s: %v: %s", strings.Join(args, " "), err, firstLine(stderr.String()))
		}
	}
	return base, patterns, nil
}

// fetchError is the failure to fetch the module itself: the machine or
// its module proxy, not lockvet.
type fetchError struct{ error }

// stderrOf is the standard error a failed go command printed.
func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(ee.Stderr)
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// copyTree copies the regular files of src to dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// run prepares the module and runs lockvet on it.
func (m *module) run(o options, netns bool, labels *labels, log func(string, ...any)) {
	dir, patterns, err := m.prepare(o, log)
	if err != nil {
		m.errors = append(m.errors, &lvError{text: "sweep: " + err.Error()})
		m.status = "not run"
		var fe *fetchError
		if errors.As(err, &fe) {
			m.unfetched, m.status = true, "not fetched"
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	argv := append([]string{o.lockvet, "-v", "-json"}, patterns...)
	if netns {
		argv = append([]string{"unshare", "-n"}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = goEnv("GOPROXY=off", "GOSUMDB=off")
	// lockvet and the go commands it starts form one process group, all
	// killed at the timeout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	m.netns = netns
	if out, err := exec.Command("go", "env", "GOVERSION").Output(); err == nil {
		m.goVersion = strings.TrimPrefix(strings.TrimSpace(string(out)), "go")
	}
	t0 := time.Now()
	err = cmd.Run()
	m.elapsed = time.Since(t0)

	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		m.hung = true
		m.status = "killed after " + o.timeout.String()
	case err == nil:
		m.status = "0"
	case errors.As(err, &ee):
		m.status = strconv.Itoa(ee.ExitCode())
	default:
		m.status = err.Error()
	}
	root := dir
	if patterns[0] == "std" {
		if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
			root = filepath.Join(strings.TrimSpace(string(out)), "src")
		}
	}
	m.parse(root, stdout.Bytes(), stderr.String())
	labels.check(m, root)
	if m.status != "0" && m.status != "2" && !m.hung {
		m.panicked = true // lockvet's only statuses with -json are 0 and 2
	}
}

var summaryRE = regexp.MustCompile(`^lockvet: analyzed (\d+) packages \((\d+) with errors\), (\d+) findings`)

// parse reads lockvet's -json output and its stderr.
func (m *module) parse(root string, stdout []byte, stderr string) {
	for line := range strings.Lines(stderr) {
		line = strings.TrimRight(line, "\n")
		if s := summaryRE.FindStringSubmatch(line); s != nil {
			m.packages, _ = strconv.Atoi(s[1])
			m.broken, _ = strconv.Atoi(s[2])
			continue
		}
		if strings.HasPrefix(line, "panic:") || strings.HasPrefix(line, "goroutine ") || strings.HasPrefix(line, "fatal error:") ||
			strings.Contains(line, "internal error:") {
			m.panicked = true
		}
		if rest, ok := strings.CutPrefix(line, "lockvet: "); ok {
			m.errors = append(m.errors, &lvError{text: relativize(root, rest)})
		} else if strings.HasPrefix(line, "panic:") || strings.HasPrefix(line, "fatal error:") {
			m.errors = append(m.errors, &lvError{text: line})
		}
	}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(stdout, &tree); err != nil {
		if len(bytes.TrimSpace(stdout)) > 0 || m.status == "0" {
			m.errors = append(m.errors, &lvError{text: "sweep: lockvet -json output does not parse: " + err.Error()})
		}
		return
	}
	type diag struct {
		Category, Posn, Message string
		Related                 []struct{ Posn, Message string }
	}
	for _, byAnalyzer := range tree {
		for _, raw := range byAnalyzer {
			var diags []diag
			if json.Unmarshal(raw, &diags) != nil {
				continue // {"error": …}: the same error is on stderr
			}
			for _, d := range diags {
				f := &finding{rule: d.Category, message: d.Message}
				f.file, f.line, f.col = splitPosn(root, d.Posn)
				for _, r := range d.Related {
					file, line, col := splitPosn(root, r.Posn)
					f.related = append(f.related, fmt.Sprintf("%s:%d:%d: %s", file, line, col, r.Message))
				}
				m.findings = append(m.findings, f)
			}
		}
	}
	slices.SortFunc(m.findings, func(a, b *finding) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col),
			cmp.Compare(a.rule, b.rule), cmp.Compare(a.message, b.message))
	})
	m.findings = slices.CompactFunc(m.findings, func(a, b *finding) bool { return a.String() == b.String() })
	slices.SortFunc(m.errors, func(a, b *lvError) int { return cmp.Compare(a.text, b.text) })
}

// splitPosn splits "file:line:col" and makes file relative to root.
func splitPosn(root, posn string) (string, int, int) {
	file, col := posn, 0
	line := 0
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		col, _ = strconv.Atoi(file[i+1:])
		file = file[:i]
	}
	if i := strings.LastIndexByte(file, ':'); i >= 0 {
		line, _ = strconv.Atoi(file[i+1:])
		file = file[:i]
	}
	if rel, err := filepath.Rel(root, file); err == nil && filepath.IsLocal(rel) {
		file = filepath.ToSlash(rel)
	}
	return file, line, col
}

// relativize replaces root in an error text with nothing: the texts are
// compared against notes and must not depend on the work directory.
func relativize(root, s string) string {
	return strings.ReplaceAll(s, root+string(filepath.Separator), "")
}

// summary is the totals over all modules.
type summary struct {
	modules, packages, broken                int
	findings, bugs, falsePositives, unreview int
	debatable                                int
	errors, unexplained                      int
	panics, hangs                            int
	unfetched                                int  // modules that could not be fetched
	quick                                    bool // -quick: an unfetched module's error needs no note
}

func summarize(mods []*module, quick bool) summary {
	s := summary{quick: quick}
	for _, m := range mods {
		s.modules++
		if m.unfetched {
			s.unfetched++
		}
		s.packages += m.packages
		s.broken += m.broken
		s.findings += len(m.findings)
		for _, f := range m.findings {
			switch {
			case f.note == nil:
				s.unreview++
			case f.note.verdict == "bug":
				s.bugs++
			case f.note.verdict == "debatable":
				s.debatable++
			default:
				s.falsePositives++
			}
		}
		s.errors += len(m.errors)
		for _, e := range m.errors {
			if e.note == nil && !(quick && m.unfetched) {
				s.unexplained++
			}
		}
		if m.panicked {
			s.panics++
		}
		if m.hung {
			s.hangs++
		}
	}
	return s
}

// ok reports whether the sweep passes. A module that could not be
// fetched fails a full sweep (its error needs a note, like any other)
// but not a -quick one, unless no module could be: then nothing was
// checked.
func (s summary) ok() bool {
	return s.panics == 0 && s.hangs == 0 && s.unreview == 0 && s.unexplained == 0 &&
		!(s.quick && s.unfetched == s.modules)
}

func (s summary) String() string {
	out := fmt.Sprintf("%d modules, %d packages (%d with errors), %d findings (%d true bugs, %d false positives, %d debatable, %d unreviewed), %d errors (%d unexplained), %d panics, %d hangs",
		s.modules, s.packages, s.broken, s.findings, s.bugs, s.falsePositives, s.debatable, s.unreview, s.errors, s.unexplained, s.panics, s.hangs)
	if s.unfetched > 0 {
		out += fmt.Sprintf(", %d modules not fetched", s.unfetched)
	}
	return out
}

// dropLocalReplaces removes the replace directives of dir's go.mod whose
// target is a directory.
func dropLocalReplaces(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "go", "mod", "edit", "-json")
	cmd.Dir = dir
	cmd.Env = goEnv()
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go mod edit -json: %v", err)
	}
	var mod struct {
		Replace []struct {
			Old, New struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		return err
	}
	var args []string
	for _, r := range mod.Replace {
		if r.New.Version == "" && (strings.HasPrefix(r.New.Path, ".") || filepath.IsAbs(r.New.Path)) {
			old := r.Old.Path
			if r.Old.Version != "" {
				old += "@" + r.Old.Version
			}
			args = append(args, "-dropreplace="+old)
		}
	}
	if len(args) == 0 {
		return nil
	}
	cmd = exec.CommandContext(ctx, "go", append([]string{"mod", "edit"}, args...)...)
	cmd.Dir = dir
	cmd.Env = goEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod edit %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// saved is a module's result as -results writes it.
type saved struct {
	Module    string
	Packages  int
	Broken    int
	Findings  []savedFinding
	Errors    []string
	ElapsedMS int64
	GoVersion string
	NetNS     bool
	Panicked  bool
	Hung      bool
	Unfetched bool `json:",omitempty"`
	Status    string
}

type savedFinding struct {
	File      string
	Line, Col int
	Rule      string
	Message   string
	Related   []string
}

func saveResults(file string, mods []*module) error {
	var out []saved
	for _, m := range mods {
		s := saved{Module: m.String(), Packages: m.packages, Broken: m.broken, ElapsedMS: m.elapsed.Milliseconds(),
			GoVersion: m.goVersion, NetNS: m.netns, Panicked: m.panicked, Hung: m.hung, Unfetched: m.unfetched, Status: m.status}
		for _, f := range m.findings {
			s.Findings = append(s.Findings, savedFinding{f.file, f.line, f.col, f.rule, f.message, f.related})
		}
		for _, e := range m.errors {
			s.Errors = append(s.Errors, e.text)
		}
		out = append(out, s)
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}

func loadResults(file string) (map[string]*module, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var in []saved
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	out := map[string]*module{}
	for _, s := range in {
		m := &module{packages: s.Packages, broken: s.Broken, elapsed: time.Duration(s.ElapsedMS) * time.Millisecond,
			goVersion: s.GoVersion, netns: s.NetNS, panicked: s.Panicked, hung: s.Hung, unfetched: s.Unfetched, status: s.Status}
		m.path, m.version, _ = strings.Cut(s.Module, "@")
		for _, f := range s.Findings {
			m.findings = append(m.findings, &finding{file: f.File, line: f.Line, col: f.Col, rule: f.Rule, message: f.Message, related: f.Related})
		}
		for _, e := range s.Errors {
			m.errors = append(m.errors, &lvError{text: e})
		}
		out[s.Module] = m
	}
	return out, nil
}
