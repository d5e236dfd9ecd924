package golangci_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWrapperSettings: acquire-funcs, release-funcs and safe-release-funcs
// declare an in-house Store's methods (passes/testdata/wrappers), and the
// built analyzers report the unchecked release through them, as the
// CLI's flags of the same names do; without the settings they are silent.
func TestWrapperSettings(t *testing.T) {
	td := filepath.Join(repoRoot(t), "passes", "testdata")
	modDownload(t, td)
	const store = "lockvet.test/wrappers/store.Store"
	file := filepath.Join(td, "wrappers", "unsafeunlock", "unsafeunlock.go")
	var want []int
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), "// want ") {
			want = append(want, n)
		}
	}

	pkgs := load(t, td, "./wrappers/unsafeunlock")
	settings := map[string]any{
		"checks":             []any{"unsafeunlock"},
		"acquire-funcs":      []any{"(*" + store + ").TryLock:key=1,value=2,ttl=3"},
		"release-funcs":      []any{"(*" + store + ").Unlock:key=key"},
		"safe-release-funcs": []any{"(" + store + ").Release:key=key,value=token"},
	}
	var got []int
	for _, d := range analyze(t, pkgs, buildAnalyzers(t, newPlugin(t, settings))) {
		if d.Pos.Filename != file || !strings.Contains(d.Message, "does not check the owner") || len(d.SuggestedFixes) > 0 {
			t.Errorf("unexpected finding %s: %s (%d fixes)", d.Pos, d.Message, len(d.SuggestedFixes))
			continue
		}
		got = append(got, d.Pos.Line)
	}
	slices.Sort(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("findings on lines %v, want %v", got, want)
	}

	for _, d := range analyze(t, pkgs, buildAnalyzers(t, newPlugin(t, map[string]any{"checks": []any{"unsafeunlock"}}))) {
		t.Errorf("without wrapper settings: %s: %s", d.Pos, d.Message)
	}
}

// TestWrapperSettingsEveryCheck: with the Store's methods and two
// same-package functions declared in the settings (the declarations the
// analyzer package's tests make through analyzer.Config), every check
// reports through the wrappers exactly the findings its testdata under
// passes/testdata/wrappers/<check> expects, as it does there.
func TestWrapperSettingsEveryCheck(t *testing.T) {
	td := filepath.Join(repoRoot(t), "passes", "testdata")
	modDownload(t, td)
	const store = "lockvet.test/wrappers/store.Store"
	settings := map[string]any{
		"acquire-funcs": []any{
			"(*" + store + ").TryLock:key=key,value=token,ttl=ttl",
			"(*" + store + ").Acquire:key=1,value=2,ttl=3",
			"lockvet.test/wrappers/setnxexpire.grab:key=2,value=3,ttl=none",
			"lockvet.test/wrappers/noexpire.grab:key=key,value=token,ttl=none",
		},
		"expire-funcs":       []any{"(*" + store + ").Touch:key=1,ttl=seconds,unit=seconds"},
		"release-funcs":      []any{"(*" + store + ").Unlock:key=1"},
		"safe-release-funcs": []any{"(" + store + ").Release:key=key,value=token"},
	}
	var want, got []string
	files, err := filepath.Glob(filepath.Join(td, "wrappers", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		check := filepath.Base(filepath.Dir(file))
		for n, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "// want ") {
				want = append(want, fmt.Sprintf("%s:%d: %s", filepath.Base(file), n+1, check))
			}
		}
	}
	for _, d := range analyze(t, load(t, td, "./wrappers/..."), buildAnalyzers(t, newPlugin(t, settings))) {
		if filepath.Base(filepath.Dir(d.Pos.Filename)) != d.Analyzer {
			continue // another check's finding in this check's package
		}
		got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(d.Pos.Filename), d.Pos.Line, d.Analyzer))
	}
	slices.Sort(want)
	slices.Sort(got)
	t.Logf("%d findings through the wrappers, in %d files", len(got), len(files))
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("findings through the declared wrappers:\n%s\nwant (the testdata's // want lines):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
