package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// xpkgDir is a service whose lock helpers live in one package (cache)
// and are called from two others (orders, billing), on go-redis v9.
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
	dir := copyTree(t, xpkgDir)

	v := command(t, dir, "go", "vet", "-vettool="+lockvetBin, "./...")
	vet := vetLines(t, dir, v)
	cli := cliLines(t, dir, lockvet(t, dir, "./..."))
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

	// Only the callers named: the same findings in their files.
	// (Lines that point into the helper package, related positions of
	// the callers' findings, are left out of the comparison.)
	only := outside(cliLines(t, dir, lockvet(t, dir, "./orders", "./billing")))
	if !slices.Equal(only, callers) {
		t.Errorf("lockvet ./orders ./billing differs from go vet's findings in those packages\ngo vet:\n%s\nlockvet:\n%s", strings.Join(callers, "\n"), strings.Join(only, "\n"))
	}
}
