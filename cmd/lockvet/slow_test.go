package main

import (
	"os"
	"testing"
)

// needSlow skips t unless LOCKVET_SLOW=1 is set, as CI (.ci/run) sets it.
// It is for the tests that the README's go test ./... leaves out because
// they cost minutes of CPU on a cold build cache for what they add: they
// build lockvet or the standard library again with other settings, or run
// go vet as lockvet's host. what says what the test does.
func needSlow(t *testing.T, what string) {
	t.Helper()
	if testing.Short() || os.Getenv("LOCKVET_SLOW") != "1" {
		t.Skipf("set LOCKVET_SLOW=1 to run this test (CI does): it %s", what)
	}
}

// govetHost is what a test run as go vet's vet tool does.
const govetHost = "runs go vet with lockvet as its vet tool"
