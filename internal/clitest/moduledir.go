package clitest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

// ModuleDir returns an empty directory for a module that the test writes
// and lockvet then analyzes.
//
// lockvet loads packages as go/packages does, with go list -export, which
// compiles every package it analyzes, and the build cache keys those
// compiles on the package's directory. In a t.TempDir, a new path in
// every run, each run compiled the test's modules again: about 2 s of CPU
// for every package that imports go-redis v9, most of what these tests
// cost. moduleDir's path is the same in every run of the test from this
// checkout (the test's name and the n-th directory it asked for), so a
// warm build cache has those compiles, as it has them for a user's module
// between two runs.
func ModuleDir(t testing.TB) string {
	t.Helper()
	moduleDirsMu.Lock()
	moduleDirs[t.Name()]++
	n := moduleDirs[t.Name()]
	moduleDirsMu.Unlock()
	return stableDir(t, fmt.Sprintf("%s-%d", unsafeChars.ReplaceAllString(t.Name(), "_"), n))
}

// ExampleCopy copies the example module into a directory and returns it,
// for a test that edits the module (fixes it, adds lines and files,
// commits it). Every such test gets the same directory, svc in an
// otherwise empty directory (a repository root for the test that needs
// one), one test at a time: a copy compiles like the module it copies
// only at the same path, and each copy compiled afresh cost 20 s of CPU on
// a cold build cache.
func ExampleCopy(t testing.TB) string {
	t.Helper()
	exampleCopyMu.Lock()
	t.Cleanup(exampleCopyMu.Unlock)
	mod := filepath.Join(stableDir(t, "example-copy"), "svc")
	CopyInto(t, ExampleDir(), mod)
	return mod
}

// stableDir returns the empty directory name under the test package's
// directory in the system's temporary directory, and removes it when the
// test ends. If another live process holds it (the same test running
// twice at once), the test gets a t.TempDir instead: only slower.
func stableDir(t testing.TB, name string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(wd))
	base := filepath.Join(os.TempDir(), "lockvet-test-"+hex.EncodeToString(sum[:6]))
	dir := filepath.Join(base, name)
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Logf("no stable module directory (%v): using a temporary one", err)
		return t.TempDir()
	}
	owner := dir + ".pid"
	if !claim(owner) {
		t.Logf("%s is in use by another process: using a temporary directory", dir)
		return t.TempDir()
	}
	t.Cleanup(func() {
		os.RemoveAll(dir)
		os.Remove(owner)
	})
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

var (
	moduleDirsMu  sync.Mutex
	moduleDirs    = map[string]int{} // test name → directories handed out
	unsafeChars   = regexp.MustCompile(`[^A-Za-z0-9_.-]`)
	exampleCopyMu sync.Mutex
)

// claim makes this process the owner of a directory: it creates the file
// owner holding the process ID, unless a live process already owns it. A
// file left by a process that is gone is taken over.
func claim(owner string) bool {
	tmp := fmt.Sprintf("%s.%d", owner, os.Getpid())
	if err := os.WriteFile(tmp, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return false
	}
	defer os.Remove(tmp)
	for range 2 {
		// A hard link appears with its content, or fails if owner exists.
		if os.Link(tmp, owner) == nil {
			return true
		}
		data, err := os.ReadFile(owner)
		if err != nil {
			return false
		}
		pid, err := strconv.Atoi(string(data))
		if err != nil || alive(pid) {
			return false
		}
		os.Remove(owner)
	}
	return false
}

// alive reports whether a process with this ID exists.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// CopyTree copies the module in src to a new directory (ModuleDir).
func CopyTree(t testing.TB, src string) string {
	t.Helper()
	dst := ModuleDir(t)
	CopyInto(t, src, dst)
	return dst
}

// CopyInto copies the tree at src to dst.
func CopyInto(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Snapshot is the content of every file under dir.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		files[path[len(dir):]] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// SameFiles fails for each file that changed, appeared or went away
// between two snapshots.
func SameFiles(t testing.TB, before, after map[string]string) {
	t.Helper()
	for name := range after {
		if content, ok := before[name]; !ok || content != after[name] {
			t.Errorf("%s changed or appeared", name)
		}
	}
	for name := range before {
		if _, ok := after[name]; !ok {
			t.Errorf("%s went away", name)
		}
	}
}
