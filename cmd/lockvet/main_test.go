package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
)

// The tests here build lockvet (and lockvet-live, which lockvet live and
// lockvet release run) once and run them as a user would: what needs the
// binary, its outputs and exit statuses (TestGolden), go vet as its
// host, bad input end to end, the documented command lines. Each part's
// own tests run in its package, in the test's process.

var (
	lockvetBin string // the built binary
	exampleDir = clitest.ExampleDir()
	brokenDir  = clitest.BrokenDir()
	setupErr   error
)

func TestMain(m *testing.M) {
	analyzePackages = analyzeOnce
	tmp, err := os.MkdirTemp("", "lockvet-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	lockvetBin = filepath.Join(tmp, "lockvet")
	// One build, both binaries, side by side as go install puts them.
	if out, err := exec.Command("go", "build", "-o", tmp+string(filepath.Separator), ".", "../lockvet-live").CombinedOutput(); err != nil {
		setupErr = fmt.Errorf("go build: %v\n%s", err, out)
	}
	if err := clitest.Setup(); err != nil && setupErr == nil {
		setupErr = err
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// lockvet runs the binary in dir with args.
func lockvet(t *testing.T, dir string, args ...string) clitest.RunResult {
	t.Helper()
	return lockvetEnv(t, dir, nil, args...)
}

// lockvetEnv runs lockvet in dir with extra environment variables.
func lockvetEnv(t *testing.T, dir string, env []string, args ...string) clitest.RunResult {
	t.Helper()
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return clitest.Command(t, dir, env, lockvetBin, args...)
}

// command runs another program in dir.
func command(t *testing.T, dir, name string, args ...string) clitest.RunResult {
	t.Helper()
	return clitest.Command(t, dir, nil, name, args...)
}
