package main

import (
	"path/filepath"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
)

// TestFixApp: on a copy of testdata/fixapp, a small service with one
// instance of each shape lockvet rewrites on real code (a constant lock
// value released by a bare DEL, with go-redis and redigo; GET, error
// handled, early return, DEL; a fail-open return; SETNX then EXPIRE; a
// Lock/Unlock helper pair with a constant value, called in its own package
// and an exported one called from another package; in package stock a
// TTL count whose name says its unit, SETNX and EXPIRE in one
// transaction, an acquire whose bool is dropped, GETSET then EXPIRE; in
// package leases a bare PEXPIRE renewal and a GET-compare-DEL release,
// whose two scripts are inserted at one place; in package sessions a
// release through the service's own interface, kv.Store, which has no
// Eval and is implemented in package kv/rediskv: the fix adds Eval to
// both), every finding carries a
// fix, -fix applies them all, the module still
// builds and vets, and lockvet then reports nothing.
func TestFixApp(t *testing.T) {
	t.Parallel()
	dir := clitest.CopyTree(t, filepath.Join("testdata", "fixapp"))
	before := lockvet(t, dir, "-json", "./...")
	_, diags := clitest.ParseJSON(t, dir, before.Stdout)
	if len(diags) < 17 {
		t.Fatalf("%d findings on fixapp, want at least 17 (one per shape, two for some)", len(diags))
	}
	for _, d := range diags {
		if len(d.SuggestedFixes) == 0 {
			t.Errorf("no fix: %s: %s: %s", d.Posn, d.Category, d.Message)
		}
	}
	lockvet(t, dir, "-fix", "./...").WantCode(t, driver.ExitClean)
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		if out := command(t, dir, "go", args...); out.Code != 0 {
			t.Fatalf("go %v on the fixed copy: %s%s", args, out.Stdout, out.Stderr)
		}
	}
	after := lockvet(t, dir, "-json", "./...")
	if _, left := clitest.ParseJSON(t, dir, after.Stdout); len(left) != 0 {
		for _, d := range left {
			t.Errorf("after -fix: %s: %s: %s", d.Posn, d.Category, d.Message)
		}
	}
}
