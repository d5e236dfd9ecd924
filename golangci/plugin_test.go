package golangci_test

import (
	"go/format"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/golangci"
)

// golangciVersion is the golangci-lint release the examples and the host
// test build against.
const golangciVersion = "v2.15.0"

func ruleNames() []string {
	var names []string
	for _, r := range analyzer.Rules() {
		names = append(names, r.Name)
	}
	return names
}

// analyzerNames returns the names of the checks a plugin build runs: the
// analyzers its one "lockvet" analyzer requires.
func analyzerNames(as []*analysis.Analyzer) []string {
	if len(as) == 1 && as[0].Name == golangci.Name {
		as = as[0].Requires
	}
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
	}
	return names
}

func settingKeys() []string {
	var keys []string
	for f := range reflect.TypeFor[golangci.Settings]().Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	slices.Sort(keys)
	return keys
}

func TestRegisteredLikeGolangci(t *testing.T) {
	p := newPlugin(t, nil)
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
	}
	as := buildAnalyzers(t, p)
	if got, want := analyzerNames(as), ruleNames(); !slices.Equal(got, want) {
		t.Errorf("default settings build %v, want every check %v", got, want)
	}
	// One analyzer named like the linter, so that golangci-lint does not
	// prefix its messages with an analyzer name (they start with the check
	// ID), which reports for the checks it requires.
	if len(as) != 1 || as[0].Name != golangci.Name {
		t.Fatalf("the plugin builds %d analyzers, want one named %s", len(as), golangci.Name)
	}
	if err := analysis.Validate(as); err != nil {
		t.Error(err)
	}
	for _, a := range append(as, as[0].Requires...) {
		if a.URL == "" || a.Doc == "" {
			t.Errorf("%s: missing URL or Doc", a.Name)
		}
	}
}

// lowerKeys lower-cases map keys the way golangci-lint's config loader
// (viper) does before the settings reach the plugin.
func lowerKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[strings.ToLower(k)] = lowerKeys(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = lowerKeys(x)
		}
		return out
	}
	return v
}

func readYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return lowerKeys(m).(map[string]any)
}

// dig walks nested mappings.
func dig(t *testing.T, m map[string]any, path ...string) any {
	t.Helper()
	var v any = m
	for i, k := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s is not a mapping", strings.Join(path[:i], "."))
		}
		v, ok = mm[k]
		if !ok {
			t.Fatalf("%s is missing", strings.Join(path[:i+1], "."))
		}
	}
	return v
}

// TestExampleConfig keeps .golangci.example.yml valid: v2 syntax, lockvet
// enabled as a module plugin, and a settings block the plugin accepts and
// that shows every setting.
func TestExampleConfig(t *testing.T) {
	cfg := readYAML(t, filepath.Join(repoRoot(t), ".golangci.example.yml"))
	if v := dig(t, cfg, "version"); v != "2" {
		t.Errorf(`version = %#v, want "2" (a quoted string, as golangci-lint v2 requires)`, v)
	}
	if v := dig(t, cfg, "linters", "default"); v != "none" {
		t.Errorf("linters.default = %v, want none", v)
	}
	if enable, _ := dig(t, cfg, "linters", "enable").([]any); !slices.Contains(enable, any(golangci.Name)) {
		t.Errorf("linters.enable = %v, want it to contain %q", enable, golangci.Name)
	}
	custom := []string{"linters", "settings", "custom", golangci.Name}
	if v := dig(t, cfg, append(custom, "type")...); v != "module" {
		t.Errorf("type = %v, want module", v)
	}
	if v := dig(t, cfg, append(custom, "original-url")...); v != "github.com/lockvet/lockvet" {
		t.Errorf("original-url = %v", v)
	}
	if v, _ := dig(t, cfg, append(custom, "description")...).(string); v == "" {
		t.Errorf("description is empty")
	}
	settings := dig(t, cfg, append(custom, "settings")...)
	var keys []string
	for k := range settings.(map[string]any) {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := settingKeys(); !slices.Equal(keys, want) {
		t.Errorf("example settings show %v, want every setting %v", keys, want)
	}
	as := buildAnalyzers(t, newPlugin(t, settings))
	if len(as) == 0 {
		t.Errorf("example settings enable no check")
	}
}

// TestCustomGCLExample keeps .custom-gcl.example.yml pointing at this
// package and at the golangci-lint release the host test builds.
func TestCustomGCLExample(t *testing.T) {
	cfg := readYAML(t, filepath.Join(repoRoot(t), ".custom-gcl.example.yml"))
	if v := dig(t, cfg, "version"); v != golangciVersion {
		t.Errorf("version = %v, want %s (the release golangci_host_test.go builds)", v, golangciVersion)
	}
	plugins, _ := dig(t, cfg, "plugins").([]any)
	if len(plugins) != 1 {
		t.Fatalf("want one active plugin entry (the path form stays commented out), got %v", plugins)
	}
	p := plugins[0].(map[string]any)
	if p["module"] != "github.com/lockvet/lockvet" {
		t.Errorf("module = %v", p["module"])
	}
	if want := reflect.TypeFor[golangci.Settings]().PkgPath(); p["import"] != want {
		t.Errorf("import = %v, want %s (the package that calls register.Plugin)", p["import"], want)
	}
	if v, _ := p["version"].(string); !strings.HasPrefix(v, "v") {
		t.Errorf("version = %v, want a release tag", p["version"])
	}
	data, _ := os.ReadFile(filepath.Join(repoRoot(t), ".custom-gcl.example.yml"))
	if !strings.Contains(string(data), "#   path: ") {
		t.Errorf("the local path: form is no longer shown")
	}
}

func TestSettingsSelectChecks(t *testing.T) {
	all := ruleNames()
	first := analyzer.Rules()[0]
	for _, tc := range []struct {
		settings any
		want     []string
	}{
		{nil, all},
		{map[string]any{}, all},
		{map[string]any{"checks": []any{}}, all},
		{map[string]any{"checks": []any{first.ID}}, []string{first.Name}},
		{map[string]any{"checks": []any{strings.ToLower(first.ID)}}, []string{first.Name}},
		{map[string]any{"checks": []any{first.Name}}, []string{first.Name}},
		{map[string]any{"disable": toAny(all[1:])}, []string{first.Name}},
		{map[string]any{"redis-version": "8.4", "include-generated": true}, all},
	} {
		got := analyzerNames(buildAnalyzers(t, newPlugin(t, tc.settings)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("settings %v: got %v, want %v", tc.settings, got, tc.want)
		}
	}
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

func TestSettingsErrors(t *testing.T) {
	ctor, err := register.GetPlugin(golangci.Name)
	if err != nil {
		t.Fatal(err)
	}
	valid := strings.Join(settingKeys(), ", ")
	for _, tc := range []struct {
		settings any
		want     []string // substrings of the error
	}{
		{map[string]any{"redis_version": "7.2"},
			[]string{`unknown lockvet setting "redis_version"`, `did you mean "redis-version"?`, valid}},
		{map[string]any{"enable": []any{"LV101"}, "foo": 1},
			[]string{`unknown lockvet settings "enable", "foo"`, valid}},
		{map[string]any{"check": []any{"LV101"}},
			[]string{`"check" (did you mean "checks"?)`}},
		{map[string]any{"acquire_funcs": []any{"example.com/lock.Acquire"}},
			[]string{`unknown lockvet setting "acquire_funcs"`, `did you mean "acquire-funcs"?`}},
		{map[string]any{"release-funcs": []any{"example.com/lock.Release"}},
			[]string{`release-funcs "example.com/lock.Release": option key is required`}},
		{map[string]any{"acquire-funcs": "example.com/lock.Acquire"},
			[]string{`lockvet setting "acquire-funcs": got a string, want a list of strings`}},
		{map[string]any{"checks": "LV101"},
			[]string{`lockvet setting "checks": got a string, want a list of strings`}},
		{map[string]any{"disable": []any{101}},
			[]string{`lockvet setting "disable": got a number, want a string`}},
		{map[string]any{"include-generated": "yes"},
			[]string{`lockvet setting "include-generated": got a string, want true or false`}},
		{map[string]any{"redis-version": 7.2},
			[]string{`lockvet setting "redis-version": got a number, want a string`, `"7.2"`}},
		{map[string]any{"checks": []any{"LV999"}},
			[]string{`unknown check "LV999"`, analyzer.Rules()[0].ID}},
		{map[string]any{"disable": []any{"nosuchcheck"}},
			[]string{`unknown check "nosuchcheck"`}},
		{map[string]any{"redis-version": "seven"},
			[]string{`redis version "seven"`, "MAJOR.MINOR"}},
		{map[string]any{"disable": toAny(ruleNames())},
			[]string{"no check enabled"}},
		{[]any{"LV101"},
			[]string{"must be a mapping"}},
	} {
		p, err := ctor(tc.settings)
		if err == nil {
			t.Errorf("settings %v: accepted, want an error (plugin %v)", tc.settings, p)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("settings %v: error %q does not contain %q", tc.settings, err, w)
			}
		}
	}
}

// TestInstancesIndependent builds two differently configured plugins and
// checks that neither sees the other's settings, that every
// BuildAnalyzers call returns new analyzers, and that the settings value
// golangci-lint passed in is not kept.
func TestInstancesIndependent(t *testing.T) {
	first := analyzer.Rules()[0]
	checks := []any{first.Name}
	rawA := map[string]any{"checks": checks, "include-generated": true}
	a := newPlugin(t, rawA)
	b := newPlugin(t, map[string]any{"redis-version": "8.4"})
	checks[0] = "nosuchcheck" // the caller reuses its value: must not matter
	rawA["include-generated"] = false

	a1, b1, a2 := buildAnalyzers(t, a), buildAnalyzers(t, b), buildAnalyzers(t, a)
	if got := analyzerNames(a1); !slices.Equal(got, []string{first.Name}) {
		t.Errorf("plugin A builds %v, want [%s]", got, first.Name)
	}
	if got := analyzerNames(b1); !slices.Equal(got, ruleNames()) {
		t.Errorf("plugin B builds %v, want %v", got, ruleNames())
	}
	seen := map[*analysis.Analyzer]string{}
	for name, set := range map[string][]*analysis.Analyzer{"A#1": a1, "B#1": b1, "A#2": a2} {
		for _, an := range set {
			for _, x := range append([]*analysis.Analyzer{an}, an.Requires...) {
				if other, ok := seen[x]; ok && other != name {
					t.Errorf("analyzer %s shared by builds %s and %s", x.Name, other, name)
				}
				seen[x] = name
			}
		}
	}

	// Behaviour: A reports in generated files, B does not.
	dir := tempModule(t, map[string]string{
		"p/plain.go": lockSrc("", "Plain"),
		"p/gen.go":   lockSrc("// Code generated by hand for a test. DO NOT EDIT.\n\n", "Gen"),
	})
	count := func(ds []diag) (plain, gen int) {
		for _, d := range ds {
			if d.Analyzer != first.Name {
				continue
			}
			switch filepath.Base(d.Pos.Filename) {
			case "plain.go":
				plain++
			case "gen.go":
				gen++
			}
		}
		return
	}
	pkgs := load(t, dir, "./...")
	if plain, gen := count(analyze(t, pkgs, a1)); plain != 1 || gen != 1 {
		t.Errorf("plugin A (include-generated): %d findings in plain.go, %d in gen.go, want 1 and 1", plain, gen)
	}
	if plain, gen := count(analyze(t, pkgs, b1)); plain != 1 || gen != 0 {
		t.Errorf("plugin B: %d findings in plain.go, %d in gen.go, want 1 and 0", plain, gen)
	}
}

// lockSrc is a file with one LV101 bug (SETNX without TTL, then EXPIRE).
func lockSrc(header, fn string) string {
	return header + `package p

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

func ` + fn + `(ctx context.Context, rdb *redis.Client, key, token string) bool {
	ok, err := rdb.SetNX(ctx, key, token, 0).Result()
	if err != nil || !ok {
		return false
	}
	rdb.Expire(ctx, key, time.Minute)
	return true
}
`
}

// tempModule writes files into a new module that has the dependencies of
// the analysistest module passes/testdata (real go-redis, from the cache).
func tempModule(t *testing.T, files map[string]string) string {
	t.Helper()
	td := filepath.Join(repoRoot(t), "passes", "testdata")
	modDownload(t, td)
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(td, f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(data)
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPluginReportsTheChecks: on a check's analysistest package and on
// the example module, the plugin's analyzer reports exactly the checks'
// findings as golangci.Merge gives them (one per line, IDs first, related
// positions folded in), and the merge loses none of them (issuesOf checks
// that). The checks' own tests cover their want comments and golden files;
// every check's fixes are exercised by TestFixesBuildAsGolangciAppliesThem.
func TestPluginReportsTheChecks(t *testing.T) {
	td := filepath.Join(repoRoot(t), "passes", "testdata")
	first := analyzer.Rules()[0].Name
	modDownload(t, td)
	as := buildAnalyzers(t, newPlugin(t, map[string]any{"checks": []any{first}}))
	checks, err := analyzer.Analyzers(&analyzer.Config{Checks: []string{first}})
	if err != nil {
		t.Fatal(err)
	}
	pkgs := load(t, td, "./"+first+"/...")
	got, want := pluginIssues(t, td, analyze(t, pkgs, as)), issuesOf(t, td, analyze(t, pkgs, checks))
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("%s: the plugin reports\n\t%s\nwant\n\t%s", first, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if example := filepath.Join(repoRoot(t), "testdata"); fileExists(filepath.Join(example, "go.mod")) {
		modDownload(t, example)
		all, err := analyzer.Analyzers(nil)
		if err != nil {
			t.Fatal(err)
		}
		pkgs := loadShared(t, example, "./...") // as TestFixesBuildAsGolangciAppliesThem
		got, want := pluginIssues(t, example, analyze(t, pkgs, buildAnalyzers(t, newPlugin(t, nil)))), issuesOf(t, example, analyze(t, pkgs, all))
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("example: the plugin reports\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
	}
}

// TestFixesBuildAsGolangciAppliesThem applies the plugin's fixes the way
// golangci-lint --fix does (pkg/result/processors/fixer.go: every edit of
// every lockvet issue in a file, then gofmt; no removal of unused
// imports, unlike the x/tools drivers and analysistest) to each check's
// analysistest package and to the example module, and type-checks the
// result.
func TestFixesBuildAsGolangciAppliesThem(t *testing.T) {
	as := buildAnalyzers(t, newPlugin(t, nil))
	td := filepath.Join(repoRoot(t), "passes", "testdata")
	modDownload(t, td)
	dirs := map[string][]string{}
	// The checks' analysistest packages are named after the checks (the
	// plugin has one analyzer, "lockvet", that runs them all).
	for _, r := range analyzer.Rules() {
		if _, err := os.Stat(filepath.Join(td, r.Name)); err == nil {
			dirs[td] = append(dirs[td], "./"+r.Name+"/...")
		}
	}
	if len(dirs[td]) != len(analyzer.Rules()) {
		t.Fatalf("%s has packages for %d of the %d checks", td, len(dirs[td]), len(analyzer.Rules()))
	}
	if example := filepath.Join(repoRoot(t), "testdata"); fileExists(filepath.Join(example, "go.mod")) {
		modDownload(t, example)
		dirs[example] = []string{"./..."}
	}
	seenBroken := map[string]bool{}
	for dir, patterns := range dirs {
		overlay := map[string][]byte{}
		for file, edits := range golangciEdits(t, analyze(t, loadShared(t, dir, patterns...), as)) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out, ok := applyEdits(src, edits)
			if !ok {
				t.Errorf("%s: lockvet's fixes overlap; golangci-lint would apply none of them", file)
				continue
			}
			if f, err := format.Source(out); err == nil {
				out = f
			}
			overlay[file] = out
		}
		cfg := &packages.Config{
			Mode:    packages.LoadAllSyntax, // as load, no compiling
			Dir:     dir,
			Tests:   true,
			Env:     goEnv("GOPROXY=off", "GOWORK=off"),
			Overlay: overlay,
		}
		pkgs, err := packages.Load(cfg, patterns...)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			for _, e := range p.TypeErrors {
				pos := e.Fset.Position(e.Pos)
				rel, _ := filepath.Rel(repoRoot(t), pos.Filename)
				if want, ok := knownBrokenFixes[filepath.ToSlash(rel)]; ok && strings.Contains(e.Msg, want) {
					seenBroken[filepath.ToSlash(rel)] = true
					t.Logf("known bug: after golangci-lint --fix: %s: %s", pos, e.Msg)
					continue
				}
				t.Errorf("after golangci-lint --fix: %s: %s", pos, e.Msg)
			}
			if len(p.TypeErrors) == 0 {
				for _, e := range p.Errors {
					t.Errorf("after golangci-lint --fix: %v", e)
				}
			}
		}
	}
	for file := range knownBrokenFixes {
		if !seenBroken[file] {
			t.Errorf("%s now builds after golangci-lint --fix: remove it from knownBrokenFixes", file)
		}
	}
}

// knownBrokenFixes lists files (relative to the repository root) where the
// fixed code is known not to type-check, with the expected error. Each
// entry is a lockvet bug; the test fails once the file builds, so that the
// entry is removed. TestGolangciLintHost does not honour this list.
var knownBrokenFixes = map[string]string{}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// golangciEdits collects, per file, the edits golangci-lint --fix applies:
// those of every fix of every diagnostic, exact duplicates dropped.
func golangciEdits(t *testing.T, ds []diag) map[string][]textEdit {
	t.Helper()
	out := map[string][]textEdit{}
	for _, d := range ds {
		for _, fix := range d.SuggestedFixes {
			for _, e := range fix.TextEdits {
				f := d.Fset.File(e.Pos)
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				te := textEdit{f.Offset(e.Pos), f.Offset(end), string(e.NewText)}
				if !slices.Contains(out[f.Name()], te) {
					out[f.Name()] = append(out[f.Name()], te)
				}
			}
		}
	}
	return out
}

type textEdit struct {
	start, end int
	text       string
}

// applyEdits applies non-overlapping edits; ok is false if two overlap.
func applyEdits(src []byte, edits []textEdit) (out []byte, ok bool) {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b textEdit) int { return a.start - b.start })
	var b []byte
	last := 0
	for _, e := range edits {
		if e.start < last {
			return nil, false
		}
		b = append(b, src[last:e.start]...)
		b = append(b, e.text...)
		last = e.end
	}
	return append(b, src[last:]...), true
}
