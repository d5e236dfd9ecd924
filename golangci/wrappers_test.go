package golangci_test

import (
	"bufio"
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
