package main

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
)

// xpkgDir is a service whose lock helpers live in one package (cache)
// and are called from three others (orders, billing, jobs), on go-redis
// v9: helpers that take the key, a locker whose keys have a prefix, and
// helpers that queue on a pipeline their callers hand them.
const xpkgDir = "testdata/xpkg"

// TestVetAcrossPackages: on a module whose lock helpers are in another
// package than their callers, the lockvet command reports exactly what
// go vet -vettool=lockvet reports (where the helpers' summaries travel
// as facts in go vet's own files), with every package named and with
// only the callers named (the command then loads the helper package for
// its facts, and reports nothing in it).
func TestVetAcrossPackages(t *testing.T) {
	t.Parallel()
	needSlow(t, govetHost)
	dir := clitest.CopyTree(t, xpkgDir)

	v := command(t, dir, "go", "vet", "-vettool="+lockvetBin, "./...")
	// The findings are the same; the fixes may not be: the command sees
	// the whole module and can edit a helper pair's callers in other
	// packages, go vet sees one package at a time and withholds such a
	// fix, so the "(no fix: …)" reason is compared apart from the text.
	vet := withoutNoFix(vetLines(t, dir, v))
	cli := withoutNoFix(cliLines(t, dir, lockvet(t, dir, "./...")))
	if !slices.Equal(cli, vet) {
		t.Errorf("go vet and lockvet differ\ngo vet:\n%s\nlockvet:\n%s", strings.Join(vet, "\n"), strings.Join(cli, "\n"))
	}
	outside := func(lines []string) []string {
		return slices.DeleteFunc(slices.Clone(lines), func(l string) bool {
			return strings.HasPrefix(l, filepath.Join(dir, "cache")+string(filepath.Separator))
		})
	}
	callers := outside(vet)
	if len(callers) == 0 {
		t.Errorf("no finding outside the helper package: the helpers did not reach their callers\n%s", strings.Join(vet, "\n"))
	}

	// The jobs package: SETNX and EXPIRE queued in one transaction by
	// two helpers handed the pipeline (LV102 at the second), a release
	// on the locker that took the lock (LV201); silent for a rate
	// limiter's INCR and EXPIRE and for a release on another locker.
	jobs := filepath.Join(dir, "jobs", "jobs.go")
	for _, c := range []struct {
		line, id string
		want     bool
	}{
		{"cache.KeepLock(ctx, pipe, id)", "LV102", true},
		{"cache.KeepLock(ctx, pipe, id)", "LV101", false}, // queued, not a second round trip
		{"defer l.Drop(ctx, id)", "LV201", true},
		{"cache.Window(ctx, pipe, user)", "LV", false},
		{"return to.Drop(ctx, id)", "LV", false},
	} {
		prefix := jobs + ":" + strconv.Itoa(lineOf(t, jobs, c.line)) + ":"
		found := slices.ContainsFunc(callers, func(l string) bool { return strings.HasPrefix(l, prefix) && strings.Contains(l, c.id) })
		if found != c.want {
			t.Errorf("%s at %q: found %v, want %v\n%s", c.id, c.line, found, c.want, strings.Join(callers, "\n"))
		}
	}

	// Only the callers named: the same findings in their files.
	// (Lines that point into the helper package, related positions of
	// the callers' findings, are left out of the comparison.)
	only := withoutNoFix(outside(cliLines(t, dir, lockvet(t, dir, "./orders", "./billing", "./jobs"))))
	if !slices.Equal(only, callers) {
		t.Errorf("lockvet ./orders ./billing ./jobs differs from go vet's findings in those packages\ngo vet:\n%s\nlockvet:\n%s", strings.Join(callers, "\n"), strings.Join(only, "\n"))
	}
}

// lineOf is the number of the line of file that holds text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("%s: no line holds %q", file, text)
	return 0
}

// withoutNoFix drops the "(no fix: …)" reason that ends a finding's line.
func withoutNoFix(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if j := strings.LastIndex(l, " (no fix: "); j >= 0 && strings.HasSuffix(l, ")") {
			l = l[:j]
		}
		out[i] = l
	}
	return out
}
