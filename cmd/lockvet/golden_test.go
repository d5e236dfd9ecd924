package main

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/lockvet/lockvet/internal/applyfix"
	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/internal/findings"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden with what lockvet prints now")

// goldenDir holds TestGolden's files, one txtar archive per case.
const goldenDir = "testdata/golden"

// goldenCase is one command line whose whole output is compared with a
// golden file.
type goldenCase struct {
	name string
	dir  func(t *testing.T) string // where lockvet runs
	args []string                  // "$GOLDEN" is goldenDir, "$TMP" a new directory
	// file, when set, names a file (under "$TMP") whose content after
	// the run is part of the golden output.
	file string
	// inProcess runs the command in the test's process (run, as main
	// does for a command line without a subcommand), where the cases
	// that print one analysis of an unchanged module in several formats
	// share it (analyzeOnce).
	inProcess bool
}

var (
	analysesMu sync.Mutex
	analyses   = map[string]func() (*findings.Result, error){}
)

// analyzeOnce is analyzePackages, done once per directory, packages and
// analysis flags for the modules no test changes (the example module,
// the broken and the xpkg modules); each call gets a Result of its own,
// as the command changes it (the gates, -sarif-suppressed=false).
// Elsewhere it analyzes every time.
func analyzeOnce(s *session) (*findings.Result, error) {
	if s.dir != exampleDir && s.dir != brokenDir && s.dir != clitest.XpkgDir() {
		return driver.Analyze(s.dir, s.patterns, s.o.tests, s.analyzers, s.lock, s.module)
	}
	key := fmt.Sprintf("%s %q %v %+v", s.dir, s.patterns, s.o.tests, s.o.config)
	analysesMu.Lock()
	once := analyses[key]
	if once == nil {
		once = sync.OnceValues(func() (*findings.Result, error) {
			return driver.Analyze(s.dir, s.patterns, s.o.tests, s.analyzers, s.lock, s.module)
		})
		analyses[key] = once
	}
	analysesMu.Unlock()
	res, err := once()
	if res == nil {
		return nil, err
	}
	return &findings.Result{Findings: res.Findings, Suppressed: res.Suppressed, Errors: res.Errors,
		Packages: res.Packages, Broken: res.Broken, ActionErrs: res.ActionErrs}, err
}

func goldenCases() []goldenCase {
	example := func(*testing.T) string { return exampleDir }
	broken := func(*testing.T) string { return brokenDir }
	xpkg := func(*testing.T) string { return clitest.XpkgDir() }
	edited := func(t *testing.T) string { return clitest.ExampleCopy(t) } // a copy, for -fix to edit
	var cases []goldenCase
	add := func(name string, dir func(*testing.T) string, args ...string) {
		cases = append(cases, goldenCase{name: name, dir: dir, args: args})
	}
	// The outputs of one analysis, in the test's process (the binary
	// prints them as well: TestExitCodes, TestFixAndDiff, TestVet ...).
	addInProcess := func(name string, dir func(*testing.T) string, args ...string) {
		cases = append(cases, goldenCase{name: name, dir: dir, args: args, inProcess: true})
	}
	for _, format := range []string{"text", "json", "sarif", "github", "codeclimate", "checkstyle"} {
		addInProcess("example-"+format, example, "-format", format, "./...")
		addInProcess("clean-"+format, example, "-format", format, "./internal/...")
		addInProcess("broken-"+format, broken, "-format", format, "./...")
		addInProcess("xpkg-"+format, xpkg, "-format", format, "./...")
	}
	addInProcess("example-json-flag", example, "-json", "./...")
	addInProcess("example-sarif-unsuppressed", example, "-format", "sarif", "-sarif-suppressed=false", "./...")
	add("example-no-tests", example, "-test=false", "./...")
	add("example-generated", example, "-include-generated", "./...")
	add("example-checks", example, "-checks", "LV101,unsafeunlock", "./...")
	add("example-disable", example, "-disable", "LV104", "-disable=constvalue", "./...")
	add("example-redis84-json", example, "-redis-version", "8.4", "-json", "./...")
	addInProcess("example-diff", example, "-diff", "./...")
	add("example-fix", edited, "-fix", "./...")
	addInProcess("example-baseline", example, "-baseline", "$GOLDEN/scheduler-baseline.json", "./...")
	addInProcess("example-baseline-github", example, "-baseline", "$GOLDEN/scheduler-baseline.json", "-format", "github", "./...")
	cases = append(cases, goldenCase{name: "example-write-baseline", dir: example, args: []string{"-write-baseline", "$TMP/base.json", "./scheduler/..."}, file: "base.json"})
	add("xpkg-callers", xpkg, "./orders", "./billing", "./jobs")
	add("bad-baseline", example, "-baseline", "$GOLDEN/missing.json", "./...")
	add("no-packages", example, "example.com/nothing/...")
	add("no-directory", example, "./nothing/...")
	add("unknown-check", example, "-checks", "LV999", "./...")
	add("bad-flag", example, "-nosuchflag")
	add("bad-format", example, "-format", "xml")
	add("json-fix", example, "-json", "-fix")
	add("bad-wrapper", example, "-release-funcs", "(*example.com/x.Store).Unlock")
	add("explain", example, "-explain", "LV101")
	add("explain-unknown", example, "-explain", "LV999")
	add("help", example, "-h")
	add("vet-flags", example, "-flags")
	add("inventory-text", example, "inventory")
	add("inventory-json", example, "inventory", "-format", "json", "-test")
	add("inventory-markdown", example, "inventory", "-format", "markdown", "./scheduler/...")
	add("inventory-bad-format", example, "inventory", "-format", "yaml")
	add("inventory-help", example, "inventory", "-h")
	add("live-help", example, "live", "-h")
	add("live-no-redis", example, "live")
	add("live-listen-json", example, "live", "-redis", "127.0.0.1:1", "-pattern", "lock:*", "-listen", "127.0.0.1:0", "-format", "json")
	add("release-help", example, "release", "-h")
	add("release-no-reason", example, "release", "-redis", "127.0.0.1:1", "-key", "lock:x")
	return cases
}

// TestGolden: every output format on the example module and on the test
// modules, the baseline file, the help texts, the error messages and the
// exit statuses are byte for byte what they were when the golden files
// were recorded (go test ./cmd/lockvet -run TestGolden -update records
// them again; the diff then shows what changed). The module's and the
// repository's paths are written $MODULE and $ROOT.
func TestGolden(t *testing.T) {
	root := filepath.Dir(exampleDir)
	for _, tc := range goldenCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			dir := tc.dir(t)
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				a = strings.ReplaceAll(a, "$GOLDEN", filepath.Join(mustWd(), goldenDir))
				args[i] = strings.ReplaceAll(a, "$TMP", tmp)
			}
			var r clitest.RunResult
			if tc.inProcess {
				var stdout, stderr strings.Builder
				code := run(append([]string{"-C", dir}, args...), &stdout, &stderr)
				r = clitest.RunResult{Stdout: stdout.String(), Stderr: stderr.String(), Code: code}
			} else {
				r = lockvet(t, dir, args...)
			}
			ar := &txtar.Archive{Comment: fmt.Appendf(nil, "lockvet %s\nexit %d\n", strings.Join(tc.args, " "), r.Code)}
			ar.Files = append(ar.Files, txtar.File{Name: "stdout", Data: []byte(r.Stdout)}, txtar.File{Name: "stderr", Data: []byte(r.Stderr)})
			if tc.file != "" {
				data, err := os.ReadFile(filepath.Join(tmp, tc.file))
				if err != nil {
					t.Fatal(err)
				}
				ar.Files = append(ar.Files, txtar.File{Name: tc.file, Data: data})
			}
			got := normalizePaths(string(txtar.Format(ar)), map[string]string{dir: "$MODULE", root: "$ROOT", tmp: "$TMP"})
			file := filepath.Join(goldenDir, tc.name+".txtar")
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (go test ./cmd/lockvet -run TestGolden -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("lockvet %s in %s differs from %s (go test ./cmd/lockvet -run 'TestGolden/%s$' -update rewrites it):\n%s",
					strings.Join(tc.args, " "), dir, file, tc.name, applyfix.UnifiedDiff(file, want, []byte(got)))
			}
		})
	}
}

// normalizePaths writes each directory of dirs (longest first) as its
// placeholder, as a path and as a file URI.
func normalizePaths(s string, dirs map[string]string) string {
	for len(dirs) > 0 {
		longest := ""
		for d := range dirs {
			if len(d) > len(longest) {
				longest = d
			}
		}
		name := dirs[longest]
		delete(dirs, longest)
		uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(longest)}).String()
		s = strings.ReplaceAll(s, uri, "file://"+name)
		s = strings.ReplaceAll(s, longest, name)
	}
	return s
}

func mustWd() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	return wd
}
