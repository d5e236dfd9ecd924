package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
)

// TestFixPairOnlyItsPackage: an exported Lock/Unlock pair (testdata/modpair:
// the pair in pairpkg, its callers in billing and in worker's test file),
// with only the pair's package named. The fix loads the rest of the
// module when it asks for the callers (with their test files, also under
// -test=false), and edits them: every file changes, the module builds
// and vets, and lockvet reports nothing afterwards. So for a pair that
// implements an interface of another package (store's, svc's interface,
// with a fake in svc's test file and the service's calls).
func TestFixPairOnlyItsPackage(t *testing.T) {
	t.Parallel()
	files := []string{"pairpkg/lock.go", "billing/billing.go", "worker/worker_test.go", "store/store.go", "svc/svc.go", "svc/svc_test.go"}
	for _, flags := range [][]string{nil, {"-test=false"}} {
		dir := clitest.CopyTree(t, filepath.Join("testdata", "modpair"))
		before := clitest.Snapshot(t, dir)
		// pairpkg's exported pair; store's pair implements svc's
		// interface: the fix changes it, the fake in svc's test file and
		// the service's calls.
		for _, c := range []struct{ pkg, says string }{
			{"./pairpkg", "; changes the signatures of the exported Lock and Unlock"},
			{"./store", "; changes the interface svc.RedeemCache, its implementations and their callers"},
		} {
			args := append(append([]string{}, flags...), "-json", c.pkg)
			_, diags := clitest.ParseJSON(t, dir, lockvet(t, dir, args...).Stdout)
			if len(diags) != 2 {
				t.Fatalf("%v: %d findings in %s, want 2 (LV204, LV201)", flags, len(diags), c.pkg)
			}
			for _, d := range diags {
				if len(d.SuggestedFixes) != 1 {
					t.Fatalf("%v: %s %s: no fix: %s", flags, d.Posn, d.Category, d.Message)
				}
				if m := d.SuggestedFixes[0].Message; !strings.HasSuffix(m, c.says) {
					t.Errorf("%v: fix message %q does not end %q", flags, m, c.says)
				}
			}
		}
		args := append(append([]string{}, flags...), "-fix", "./pairpkg", "./store")
		lockvet(t, dir, args...).WantCode(t, driver.ExitClean)
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) == before[f] {
				t.Errorf("%v: -fix ./pairpkg left %s unchanged", flags, f)
			}
		}
		for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
			if out := command(t, dir, "go", args...); out.Code != 0 {
				t.Fatalf("%v: go %v on the fixed copy: %s%s", flags, args, out.Stdout, out.Stderr)
			}
		}
		if out := command(t, dir, "go", "test", "./svc"); out.Code != 0 {
			t.Fatalf("%v: go test ./svc on the fixed copy: %s%s", flags, out.Stdout, out.Stderr)
		}
		lockvet(t, dir, "./...").WantCode(t, driver.ExitClean)
	}
}

// TestFixPairBrokenTest: a package whose test files do not compile
// (billing's) is searched by name only: a file of it that names Lock
// withholds the fix, and says so; if none does, the fix is as it is. So
// is a file that a build constraint leaves out (a test behind
// //go:build integration): a fix that changed Lock's signature would
// break the build with that tag.
func TestFixPairBrokenTest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		src, why string
	}{
		{"package billing\n\nfunc TestBroken() { undefined() }\n", ""},
		{"package billing\n\nimport \"example.com/modpair/pairpkg\"\n\nvar s pairpkg.Store\n\nfunc TestBroken() { s.Lock(nil, undefined) }\n", "(no fix: broken_test.go may call Lock and does not compile)"},
		{"//go:build integration\n\npackage billing\n\nimport \"example.com/modpair/pairpkg\"\n\nvar s pairpkg.Store\n\nfunc TestTagged() { s.Lock(nil, \"x\") }\n", "(no fix: broken_test.go may call Lock and is not in this build)"},
		{"//go:build integration\n\npackage billing\n\nfunc TestTagged() {}\n", ""},
	} {
		dir := clitest.CopyTree(t, filepath.Join("testdata", "modpair"))
		clitest.WriteFiles(t, dir, map[string]string{"billing/broken_test.go": c.src})
		_, diags := clitest.ParseJSON(t, dir, lockvet(t, dir, "-test=false", "-json", "./pairpkg").Stdout)
		if len(diags) != 2 {
			t.Fatalf("%d findings, want 2 (LV204, LV201)", len(diags))
		}
		for _, d := range diags {
			switch {
			case c.why == "" && len(d.SuggestedFixes) != 1:
				t.Errorf("%s %s: no fix with a broken test that does not name Lock: %s", d.Posn, d.Category, d.Message)
			case c.why != "" && (len(d.SuggestedFixes) != 0 || !strings.HasSuffix(d.Message, c.why)):
				t.Errorf("%s %s: %d fixes, message %q; want none, ending %q", d.Posn, d.Category, len(d.SuggestedFixes), d.Message, c.why)
			}
		}
	}
}

// TestFixKeyPartCallers: a helper trio whose value is a part of its key
// (testdata/modkeypart: LockAccount(id) writes id, UnlockAccount deletes
// by a bare DEL, KeepAccount renews by a bare EXPIRE) and its callers in
// another package, each an LV204 that the helpers' own fix resolves.
// Every finding carries a fix, the callers' the same edits as the
// helpers' (so -fix applies them once); the fixed module builds and
// vets, and lockvet then reports nothing.
func TestFixKeyPartCallers(t *testing.T) {
	t.Parallel()
	dir := clitest.CopyTree(t, filepath.Join("testdata", "modkeypart"))
	_, diags := clitest.ParseJSON(t, dir, lockvet(t, dir, "-json", "./...").Stdout)
	if len(diags) != 4 {
		t.Fatalf("%d findings, want 4 (LV201, LV203 in cache; LV204 at the two calls in task)", len(diags))
	}
	var first string
	for _, d := range diags {
		if len(d.SuggestedFixes) != 1 {
			t.Fatalf("%s %s: no fix: %s", d.Posn, d.Category, d.Message)
		}
		b, err := json.Marshal(d.SuggestedFixes[0])
		if err != nil {
			t.Fatal(err)
		}
		if first == "" {
			first = string(b)
		} else if string(b) != first {
			t.Errorf("%s %s: its fix is not the helpers' fix", d.Posn, d.Category)
		}
	}
	lockvet(t, dir, "-fix", "./...").WantCode(t, driver.ExitClean)
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		if out := command(t, dir, "go", args...); out.Code != 0 {
			t.Fatalf("go %v on the fixed copy: %s%s", args, out.Stdout, out.Stderr)
		}
	}
	lockvet(t, dir, "./...").WantCode(t, driver.ExitClean)
}

// TestFixNestedPair: a helper pair one level up (testdata/modnested: the
// repository's AcquireRedeemLock/ReleaseRedeemLock implement service's
// interface, and the service wraps them in its own unexported
// acquireRedeemLock/releaseRedeemLock, whose acquire degrades to no lock
// without a cache). With only the repository named, both findings carry
// the fix that threads the token through the interface and through the
// service's pair, and edits the callers of both (the service's and its
// test file's, also under -test=false); the fixed module builds, vets
// and passes its tests, and lockvet then reports nothing.
func TestFixNestedPair(t *testing.T) {
	t.Parallel()
	files := []string{"repository/redeem_cache.go", "service/redeem.go", "service/redeem_test.go"}
	const says = "; acquireRedeemLock returns it too and releaseRedeemLock takes it"
	for _, flags := range [][]string{nil, {"-test=false"}} {
		dir := clitest.CopyTree(t, filepath.Join("testdata", "modnested"))
		before := clitest.Snapshot(t, dir)
		args := append(append([]string{}, flags...), "-json", "./repository")
		_, diags := clitest.ParseJSON(t, dir, lockvet(t, dir, args...).Stdout)
		if len(diags) != 2 {
			t.Fatalf("%v: %d findings, want 2 (LV204, LV201)", flags, len(diags))
		}
		for _, d := range diags {
			if len(d.SuggestedFixes) != 1 {
				t.Fatalf("%v: %s %s: no fix: %s", flags, d.Posn, d.Category, d.Message)
			}
			if m := d.SuggestedFixes[0].Message; !strings.HasSuffix(m, says) {
				t.Errorf("%v: fix message %q does not end %q", flags, m, says)
			}
		}
		args = append(append([]string{}, flags...), "-fix", "./repository")
		lockvet(t, dir, args...).WantCode(t, driver.ExitClean)
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) == before[f] {
				t.Errorf("%v: -fix ./repository left %s unchanged", flags, f)
			}
		}
		for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}, {"test", "./service"}} {
			if out := command(t, dir, "go", args...); out.Code != 0 {
				t.Fatalf("%v: go %v on the fixed copy: %s%s", flags, args, out.Stdout, out.Stderr)
			}
		}
		lockvet(t, dir, "./...").WantCode(t, driver.ExitClean)
	}
}

// TestFixPairTaggedOwnTest: a test file of the pair's own package that a
// build constraint leaves out (//go:build integration) and that calls the
// pair withholds the fix, which would leave it calling the old
// signatures: lockvet cannot type-check it to edit it. So for a pair
// that implements an interface (modpair's store) and for one wrapped in
// a helper pair one level up (modnested's repository).
func TestFixPairTaggedOwnTest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ tree, pkg, file, recv, why string }{
		{"modpair", "store", "store/store_integration_test.go", "redeemCache", "(no fix: store_integration_test.go may call AcquireRedeemLock and is not in this build)"},
		{"modnested", "repository", "repository/redeem_integration_test.go", "redeemCache", "(no fix: redeem_integration_test.go may call AcquireRedeemLock and is not in this build)"},
	} {
		dir := clitest.CopyTree(t, filepath.Join("testdata", c.tree))
		src := "//go:build integration\n\npackage " + c.pkg + "\n\nimport (\n\t\"context\"\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestLock(t *testing.T) {\n\tc := &" + c.recv + "{}\n\tif ok, err := c.AcquireRedeemLock(context.Background(), \"x\", time.Second); err != nil || !ok {\n\t\tt.Fatal(err)\n\t}\n\t_ = c.ReleaseRedeemLock(context.Background(), \"x\")\n}\n"
		if err := os.WriteFile(filepath.Join(dir, c.file), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, diags := clitest.ParseJSON(t, dir, lockvet(t, dir, "-json", "./"+c.pkg).Stdout)
		if len(diags) != 2 {
			t.Fatalf("%s: %d findings, want 2 (LV204, LV201)", c.tree, len(diags))
		}
		for _, d := range diags {
			if len(d.SuggestedFixes) != 0 || !strings.HasSuffix(d.Message, c.why) {
				t.Errorf("%s: %s %s: %d fixes, message %q, want none and the reason %s", c.tree, d.Posn, d.Category, len(d.SuggestedFixes), d.Message, c.why)
			}
		}
	}
}
