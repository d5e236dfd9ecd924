package golangci_test

// The host test builds a real custom golangci-lint with the lockvet plugin
// compiled in, the way `golangci-lint custom` does, but offline except for
// the module proxy: the golangci-lint source comes from the module cache
// instead of a git clone. It then checks that golangci-lint reports what
// lockvet reports in-process, and that `run --fix` applies lockvet's fixes.
//
//	LOCKVET_GOLANGCI=1 go test -run TestGolangciLintHost -v ./golangci/

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/golangci"
	"github.com/lockvet/lockvet/internal/findings"
)

func TestGolangciLintHost(t *testing.T) {
	if os.Getenv("LOCKVET_GOLANGCI") != "1" {
		t.Skip("set LOCKVET_GOLANGCI=1 to build a custom golangci-lint " + golangciVersion +
			" with the lockvet plugin and run it (about 2-3 minutes on a cold build cache)")
	}
	root := repoRoot(t)
	example := filepath.Join(root, "testdata")
	if _, err := os.Stat(filepath.Join(example, "go.mod")); err != nil {
		t.Fatalf("the example module is missing: %v", err)
	}
	modDownload(t, example)
	bin := buildCustomGolangci(t, root)

	t.Run("findings", func(t *testing.T) {
		want := expectedIssues(t, example, &analyzer.Config{})
		got := runGolangci(t, bin, example, testConfig(t, `{}`, "strict"))
		compareIssues(t, got, want)
	})

	// golangci-lint's default settings (uniq-by-line, max-same-issues 3,
	// max-issues-per-linter 50) lose nothing: on the example, and on a
	// module of two packages with two and three findings on one line and
	// related positions on the lines of other findings.
	twoline := filepath.Join(root, "golangci", "testdata", "twoline")
	modDownload(t, twoline)
	for _, dir := range []string{example, twoline} {
		t.Run("defaults/"+filepath.Base(dir), func(t *testing.T) {
			want := expectedIssues(t, dir, &analyzer.Config{})
			got := runGolangci(t, bin, dir, defaultConfig(t))
			compareIssues(t, got, want)
		})
	}

	// Settings reach the analyzers: include-generated reports in generated
	// files (golangci's own generated-file exclusion is turned off).
	t.Run("settings", func(t *testing.T) {
		want := expectedIssues(t, example, &analyzer.Config{IncludeGenerated: true, RedisVersion: "8.4"})
		got := runGolangci(t, bin, example,
			testConfig(t, `{"include-generated": true, "redis-version": "8.4"}`, "disable"))
		compareIssues(t, got, want)
	})

	// The shipped example configuration is valid for golangci-lint itself
	// and runs. Its default issue limits (max-same-issues, uniq-by-line)
	// may hide some issues, so every reported one must be expected but not
	// every expected one reported.
	t.Run("example-config", func(t *testing.T) {
		cfg := filepath.Join(root, ".golangci.example.yml")
		runBinary(t, bin, example, "config", "verify", "-c", cfg)
		settings := dig(t, readYAML(t, cfg), "linters", "settings", "custom", "lockvet", "settings")
		want := map[string]bool{}
		for _, s := range pluginIssues(t, example, analyze(t, load(t, example, "./..."), buildAnalyzers(t, newPlugin(t, settings)))) {
			want[s] = true
		}
		got := runGolangci(t, bin, example, cfg)
		if len(got) == 0 {
			t.Errorf("no issues with .golangci.example.yml")
		}
		for _, s := range got {
			if !want[s] {
				t.Errorf("unexpected issue with the example config: %s", s)
			}
		}
	})

	t.Run("fix", func(t *testing.T) {
		testFix(t, bin, example)
	})

	// Lock helpers in one package (cache), called from two others:
	// golangci-lint carries the helpers' summaries (redisops' facts) to
	// the callers as go vet and the lockvet command do, and reports at
	// the call sites what lockvet reports in-process.
	t.Run("across-packages", func(t *testing.T) {
		dir := filepath.Join(root, "cmd", "lockvet", "testdata", "xpkg")
		modDownload(t, dir)
		want := expectedIssues(t, dir, &analyzer.Config{})
		if !slices.ContainsFunc(want, func(s string) bool { return !strings.HasPrefix(s, "cache/") }) {
			t.Fatalf("in-process lockvet reports nothing outside the helper package:\n%s", strings.Join(want, "\n"))
		}
		compareIssues(t, runGolangci(t, bin, dir, testConfig(t, `{}`, "strict")), want)
	})

	// A lockvet:ignore directive suppresses the finding under
	// golangci-lint as it does in-process.
	t.Run("suppression", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "example")
		if err := copyTree(example, dir); err != nil {
			t.Fatal(err)
		}
		before := expectedIssues(t, dir, &analyzer.Config{})
		ignoreFirst(t, filepath.Join(dir, "scheduler", "scheduler.go"), "// LV101:")
		want := expectedIssues(t, dir, &analyzer.Config{})
		if len(want) >= len(before) {
			t.Fatalf("the directive suppressed nothing in-process: %d issues, %d before", len(want), len(before))
		}
		compareIssues(t, runGolangci(t, bin, dir, testConfig(t, `{}`, "strict")), want)
	})
}

// ignoreFirst puts a lockvet:ignore directive for the marker's check
// above the first line of file that holds marker ("// LV101:").
func ignoreFirst(t *testing.T, file, marker string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	for i, line := range lines {
		if j := strings.Index(line, marker); j >= 0 {
			id := strings.TrimSuffix(strings.TrimPrefix(marker, "// "), ":")
			indent := line[:len(line)-len(strings.TrimLeft(line, "\t"))]
			lines = slices.Insert(lines, i, indent+"//lockvet:ignore "+id+" -- host test: suppressed on purpose\n")
			if err := os.WriteFile(file, []byte(strings.Join(lines, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("%s: no %q", file, marker)
}

// buildCustomGolangci does what `golangci-lint custom` does with a local
// path: plugin (cmd/golangci-lint/plugins.go with a blank import of our
// package, a replace directive to the repository, go mod tidy, go build).
// The prepared source tree is kept in the temp directory, keyed on the
// golangci-lint version, the repository path and lockvet's go.mod/go.sum,
// so later runs only rebuild what changed.
func buildCustomGolangci(t *testing.T, root string) string {
	t.Helper()
	start := time.Now()
	h := sha256.New()
	fmt.Fprintln(h, golangciVersion, root)
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		h.Write(data)
	}
	tree := filepath.Join(os.TempDir(), "lockvet-golangci-"+golangciVersion+"-"+hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(filepath.Join(tree, ".lockvet-ready")); err != nil {
		prepareTree(t, root, tree)
	} else {
		t.Logf("reusing the prepared golangci-lint source in %s", tree)
	}
	bin := filepath.Join(t.TempDir(), "golangci-lint")
	version := strings.TrimPrefix(golangciVersion, "v") + "-custom-gcl-lockvet"
	command(t, tree, goEnv("GOWORK=off"), "go", "build",
		"-ldflags", fmt.Sprintf("-s -w -X 'main.version=%s' -X 'main.date=%s'", version, time.Now().UTC().Format(time.RFC3339)),
		"-o", bin, "./cmd/golangci-lint")
	out := command(t, root, goEnv(), bin, "version")
	t.Logf("built %s in %s", strings.TrimSpace(string(out)), time.Since(start).Round(time.Second))
	return bin
}

func prepareTree(t *testing.T, root, tree string) {
	t.Helper()
	var mod struct{ Dir, Error string }
	out := command(t, t.TempDir(), goEnv(), "go", "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@"+golangciVersion)
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download: %v %s\n%s", err, mod.Error, out)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(tree), filepath.Base(tree)+".tmp")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	// The module cache is read-only: copy it.
	if err := copyTree(mod.Dir, tmp); err != nil {
		t.Fatal(err)
	}
	plugins := "// Code generated by lockvet's host test. DO NOT EDIT.\n\npackage main\n\nimport (\n\t_ \"github.com/lockvet/lockvet/golangci\"\n)\n"
	if err := os.WriteFile(filepath.Join(tmp, "cmd", "golangci-lint", "plugins.go"), []byte(plugins), 0o644); err != nil {
		t.Fatal(err)
	}
	env := goEnv("GOWORK=off")
	command(t, tmp, env, "go", "mod", "edit", "-replace", "github.com/lockvet/lockvet="+root)
	command(t, tmp, env, "go", "mod", "tidy")
	// Trees prepared for this checkout with an older go.mod are stale.
	stale, _ := filepath.Glob(filepath.Join(filepath.Dir(tree), "lockvet-golangci-"+golangciVersion+"-*", ".lockvet-ready"))
	for _, marker := range stale {
		if data, err := os.ReadFile(marker); err == nil && string(data) == root {
			os.RemoveAll(filepath.Dir(marker))
		}
	}
	if err := os.WriteFile(filepath.Join(tmp, ".lockvet-ready"), []byte(root), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, tree); err != nil {
		if _, statErr := os.Stat(filepath.Join(tree, ".lockvet-ready")); statErr != nil {
			t.Fatal(err)
		} // a concurrent run prepared it first
	}
}

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

// testConfig writes a golangci-lint v2 configuration that enables only
// lockvet with the given settings (a JSON object, which is YAML too) and
// turns off golangci's issue limits and per-line deduplication.
func testConfig(t *testing.T, settings, generated string) string {
	t.Helper()
	return writeConfig(t, lockvetOnly(settings)+`  exclusions:
    generated: `+generated+`
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
  uniq-by-line: false
`)
}

// lockvetOnly is the start of a configuration that enables only lockvet,
// with the given settings (a JSON object, which is YAML too).
func lockvetOnly(settings string) string {
	return `version: "2"
linters:
  default: none
  enable: [lockvet]
  settings:
    custom:
      lockvet:
        type: module
        description: lockvet host test
        original-url: github.com/lockvet/lockvet
        settings: ` + settings + `
`
}

// writeConfig writes cfg to a .golangci.yml and returns its path.
func writeConfig(t *testing.T, cfg string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), ".golangci.yml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// defaultConfig writes a golangci-lint v2 configuration that enables only
// lockvet and leaves every issue setting at golangci-lint's default.
func defaultConfig(t *testing.T) string {
	t.Helper()
	return writeConfig(t, lockvetOnly(`{}`))
}

// runBinary runs the custom binary in dir, offline, with a fresh analysis
// cache, and returns its exit code; codes other than 0 (clean) and 1
// (issues found) fail the test.
func runBinary(t *testing.T, bin, dir string, args ...string) int {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = goEnv("GOPROXY=off", "GOWORK=off", "GOLANGCI_LINT_CACHE="+t.TempDir())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return 1
	}
	t.Fatalf("golangci-lint %s: %v\n%s", strings.Join(args, " "), err, out.String())
	return -1
}

type gclIssue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
	SuggestedFixes []json.RawMessage
}

// runGolangci runs `golangci-lint run -c cfg ./...` in dir (plus extra
// flags) and returns lockvet's issues in the form issueString gives.
func runGolangci(t *testing.T, bin, dir, cfg string, extra ...string) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "issues.json")
	args := append([]string{"run", "-c", cfg, "--path-mode=abs", "--show-stats=false",
		"--output.json.path=" + out}, extra...)
	runBinary(t, bin, dir, append(args, "./...")...)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Issues []gclIssue }
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatalf("golangci-lint JSON output: %v\n%s", err, data)
	}
	var issues []string
	for _, is := range res.Issues {
		if is.FromLinter != "lockvet" {
			t.Errorf("issue from another linter: %+v", is)
			continue
		}
		issues = append(issues, issueString(t, dir, is.Pos.Filename, is.Pos.Line, is.Pos.Column, is.Text, len(is.SuggestedFixes) > 0))
	}
	sort.Strings(issues)
	return issues
}

func issueString(t *testing.T, dir, file string, line, col int, text string, fixable bool) string {
	t.Helper()
	rel := file
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		if f, err := filepath.EvalSymlinks(file); err == nil {
			if r, err := filepath.Rel(d, f); err == nil {
				rel = filepath.ToSlash(r)
			}
		}
	}
	s := fmt.Sprintf("%s:%d:%d: %s", rel, line, col, text)
	if fixable {
		s += " [has fix]"
	}
	return s
}

// issuesOf turns lockvet's findings (diagnostics of its checks run
// in-process, as the lockvet command reports them) into the issues
// golangci-lint shows through the plugin: golangci.Merge's diagnostics,
// whose text golangci-lint does not prefix (the plugin's analyzer is named
// like the linter). It first checks that the merge loses nothing: every
// finding's check ID and message, and every related position's file and
// line, is in the one issue of its line.
func issuesOf(t *testing.T, dir string, ds []diag) []string {
	t.Helper()
	if len(ds) == 0 {
		return nil
	}
	fset := ds[0].Fset
	var raw []analysis.Diagnostic
	for _, d := range ds {
		if d.Fset != fset {
			t.Fatal("diagnostics of several file sets")
		}
		raw = append(raw, d.Diagnostic)
	}
	rel := func(file string) string {
		r, _ := filepath.Rel(dir, file)
		return filepath.ToSlash(r)
	}
	merged := golangci.DropConflicts(fset, golangci.Merge(fset, raw, rel))
	byLine := map[string]analysis.Diagnostic{}
	var out []string
	for _, m := range merged {
		pos := fset.Position(m.Pos)
		key := fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
		if _, dup := byLine[key]; dup {
			t.Errorf("two issues on %s", key)
		}
		byLine[key] = m
		out = append(out, issueString(t, dir, pos.Filename, pos.Line, pos.Column, m.Message, len(m.SuggestedFixes) > 0))
	}
	for _, d := range ds {
		m := byLine[fmt.Sprintf("%s:%d", d.Pos.Filename, d.Pos.Line)]
		// Merge names a later finding of the line with its column when it
		// differs from the first's ("…; and LV104 at column 39: …").
		atCol := fmt.Sprintf("%s at column %d: %s", d.Category, d.Pos.Column, d.Message)
		if !strings.Contains(m.Message, d.Category+": "+d.Message) && !strings.Contains(m.Message, atCol) {
			t.Errorf("%s: %s: %s is not in the issue of its line: %q", d.Pos, d.Category, d.Message, m.Message)
		}
		for _, r := range d.Related {
			p := fset.Position(r.Pos)
			if at := fmt.Sprintf("%s:%d", rel(p.Filename), p.Line); !strings.Contains(m.Message, at) {
				t.Errorf("%s: the related position %s is not in %q", d.Pos, at, m.Message)
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// pluginIssues gives the issues of the plugin's own diagnostics.
func pluginIssues(t *testing.T, dir string, ds []diag) []string {
	t.Helper()
	var out []string
	for _, d := range ds {
		out = append(out, issueString(t, dir, d.Pos.Filename, d.Pos.Line, d.Pos.Column, d.Message, len(d.SuggestedFixes) > 0))
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// expectedIssues runs analyzer.Analyzers(cfg) in-process on the module.
func expectedIssues(t *testing.T, dir string, cfg *analyzer.Config) []string {
	t.Helper()
	as, err := analyzer.Analyzers(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return issuesOf(t, dir, analyze(t, load(t, dir, "./..."), as))
}

func compareIssues(t *testing.T, got, want []string) {
	t.Helper()
	if len(want) == 0 {
		t.Fatal("lockvet finds nothing in the example module: the comparison would prove nothing")
	}
	missing, extra := diffSets(want, got), diffSets(got, want)
	for _, s := range missing {
		t.Errorf("golangci-lint lacks: %s", s)
	}
	for _, s := range extra {
		t.Errorf("golangci-lint adds:  %s", s)
	}
	if len(missing)+len(extra) == 0 {
		t.Logf("golangci-lint and in-process lockvet agree on %d issues", len(want))
	}
	if testing.Verbose() {
		for _, s := range got {
			t.Log(s)
		}
	}
}

func diffSets(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// testFix runs `golangci-lint run --fix` on a copy of the example module
// and checks that the files come out exactly as lockvet's first fixes
// applied in-process (then gofmt-ed, as golangci does with no formatter
// configured), that the result builds and type-checks with its tests, and
// that lockvet then finds nothing fixable and nothing new.
func testFix(t *testing.T, bin, example string) {
	dir := filepath.Join(t.TempDir(), "example")
	if err := copyTree(example, dir); err != nil {
		t.Fatal(err)
	}
	as, err := analyzer.Analyzers(nil)
	if err != nil {
		t.Fatal(err)
	}
	before := analyze(t, load(t, dir, "./..."), as)

	// Expected contents: the first fix of every diagnostic (the plugin
	// passes on no other), applied and gofmt-ed per file.
	var remaining []string // the findings without a fix
	firstFixes := slices.Clone(before)
	for i, d := range firstFixes {
		if len(d.SuggestedFixes) == 0 {
			remaining = append(remaining, d.Analyzer+": "+findings.WithoutReason(d.Message))
		} else {
			firstFixes[i].SuggestedFixes = d.SuggestedFixes[:1]
		}
	}
	edits := golangciEdits(t, firstFixes)
	if len(edits) == 0 {
		t.Fatal("no lockvet fix in the example module: nothing to test")
	}
	want := map[string][]byte{}
	for name, es := range edits {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out, ok := applyEdits(src, es)
		if !ok {
			// golangci-lint then skips every lockvet edit in the file.
			t.Logf("%s: overlapping fixes; golangci-lint leaves the file alone", name)
			continue
		}
		if out, err = format.Source(out); err != nil {
			t.Fatalf("%s: fixed source does not parse: %v", name, err)
		}
		want[name] = out
	}
	originals := map[string][]byte{}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			originals[path], err = os.ReadFile(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	runGolangci(t, bin, dir, testConfig(t, `{}`, "strict"), "--fix")

	changed := 0
	for path, orig := range originals {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		exp, ok := want[path]
		if !ok {
			exp = orig
		}
		if !bytes.Equal(got, exp) {
			t.Errorf("%s after golangci-lint --fix differs from lockvet's fixes:\n--- got\n%s\n--- want\n%s", path, got, exp)
		}
		if !bytes.Equal(got, orig) {
			changed++
		}
	}
	t.Logf("golangci-lint --fix changed %d files as lockvet's fixes do", changed)

	// The x/tools drivers (go vet -fix, the lockvet command, analysistest)
	// delete imports a fix leaves unused; golangci-lint and gopls apply the
	// edits as they are, so the edits alone must give code that builds.
	build := exec.Command("go", "build", "./...")
	build.Dir, build.Env = dir, goEnv("GOPROXY=off", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the code golangci-lint --fix wrote does not build (lockvet's edits must not rely on the driver removing unused imports): %v\n%s", err, out)
	}
	after := analyze(t, load(t, dir, "./..."), as) // load fails on type errors, tests included
	var left []string
	for _, d := range after {
		if len(d.SuggestedFixes) > 0 {
			t.Errorf("%s: still fixable after --fix: %s", d.Pos, d.Message)
		}
		// The reason a finding has no fix may change with the fixes
		// applied around it (the constant it named is now a token); the
		// finding is the same.
		left = append(left, d.Analyzer+": "+findings.WithoutReason(d.Message))
	}
	slices.Sort(left)
	slices.Sort(remaining)
	if !slices.Equal(left, remaining) {
		t.Errorf("after --fix, lockvet reports\n\t%s\nwant only the findings that had no fix\n\t%s",
			strings.Join(left, "\n\t"), strings.Join(remaining, "\n\t"))
	}
}
