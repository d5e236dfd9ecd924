package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lockvet/lockvet/analyzer"
)

var (
	passesOnce sync.Once
	passesErr  error
)

// passesTestdata is the analysistest module of the checks, whose
// wrappers/ tree has an in-house lock Store and its callers.
func passesTestdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "passes", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	passesOnce.Do(func() {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			passesErr = err
			t.Logf("%s", out)
		}
	})
	if passesErr != nil {
		t.Fatalf("go mod download in %s: %v", dir, passesErr)
	}
	return dir
}

// TestWrapperFlags: -acquire-funcs, -release-funcs and -safe-release-funcs
// declare the Store's methods, and LV201 reports the release wrapper
// through them, in the CLI and under go vet; without the flags nothing is
// reported.
func TestWrapperFlags(t *testing.T) {
	t.Parallel()
	dir := passesTestdata(t)
	const store = "lockvet.test/wrappers/store.Store"
	flags := []string{
		"-acquire-funcs", "(*" + store + ").TryLock:key=1,value=2,ttl=3;(*" + store + ").Acquire:key=key,value=token,ttl=ttl",
		"-release-funcs=(*" + store + ").Unlock:key=1",
		"-safe-release-funcs", "(" + store + ").Release:key=key,value=token",
	}
	// The expected findings: the `// want` lines of the package.
	var want []marker
	f, err := os.Open(filepath.Join(dir, "wrappers", "unsafeunlock", "unsafeunlock.go"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), "// want ") {
			want = append(want, marker{"wrappers/unsafeunlock/unsafeunlock.go", n, "LV201"})
		}
	}
	if len(want) == 0 {
		t.Fatal("no expected findings in the testdata")
	}

	r := lockvet(t, dir, append(flags, "./wrappers/unsafeunlock")...)
	r.wantCode(t, exitFindings)
	sameMarkers(t, parseText(t, r.stdout), want)

	r = lockvet(t, dir, "./wrappers/unsafeunlock")
	r.wantCode(t, exitClean)
	if r.stdout != "" {
		t.Errorf("without declarations: %s", r.stdout)
	}

	t.Run("go vet", func(t *testing.T) {
		needSlow(t, govetHost)
		v := command(t, dir, "go", append(append([]string{"vet", "-vettool=" + lockvetBin}, flags...), "./wrappers/unsafeunlock")...)
		v.wantCode(t, 1)
		var got []marker
		for line := range strings.Lines(v.stderr) {
			m := vetLineRE.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
			if m == nil || !strings.Contains(m[4], "does not check the owner") {
				continue
			}
			file := m[1]
			if !filepath.IsAbs(file) {
				file = filepath.Join(dir, file)
			}
			rel, _ := filepath.Rel(dir, file)
			n, _ := strconv.Atoi(m[2])
			got = append(got, marker{filepath.ToSlash(rel), n, "LV201"})
		}
		sameMarkers(t, got, want)
	})

	// A malformed declaration is a usage error.
	r = lockvet(t, dir, "-release-funcs", "(*"+store+").Unlock", "./wrappers/unsafeunlock")
	r.wantCode(t, exitError)
	if !strings.Contains(r.stderr, `release-funcs "(*lockvet.test/wrappers/store.Store).Unlock": option key is required`) {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// TestWrapperFlagsEveryCheck: with the Store's methods and two
// same-package functions declared by flags (the declarations the analyzer
// package's tests make through analyzer.Config), every check reports
// through the wrappers exactly the findings its testdata under
// passes/testdata/wrappers/<check> expects.
func TestWrapperFlagsEveryCheck(t *testing.T) {
	t.Parallel()
	dir := passesTestdata(t)
	const store = "lockvet.test/wrappers/store.Store"
	flags := []string{
		"-acquire-funcs", "(*" + store + ").TryLock:key=key,value=token,ttl=ttl;(*" + store + ").Acquire:key=1,value=2,ttl=3;" +
			"lockvet.test/wrappers/setnxexpire.grab:key=2,value=3,ttl=none;lockvet.test/wrappers/noexpire.grab:key=key,value=token,ttl=none",
		"-expire-funcs", "(*" + store + ").Touch:key=1,ttl=seconds,unit=seconds",
		"-release-funcs", "(*" + store + ").Unlock:key=1",
		"-safe-release-funcs", "(" + store + ").Release:key=key,value=token",
	}
	ids := map[string]string{} // check name → ID
	for _, r := range analyzer.Rules() {
		ids[r.Name] = r.ID
	}
	files, err := filepath.Glob(filepath.Join(dir, "wrappers", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var want []marker
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, file)
		id := ids[filepath.Base(filepath.Dir(file))]
		for n, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, "// want ") {
				want = append(want, marker{filepath.ToSlash(rel), n + 1, id})
			}
		}
	}
	r := lockvet(t, dir, append(flags, "./wrappers/...")...)
	r.wantCode(t, exitFindings)
	var got []marker
	for _, m := range parseText(t, r.stdout) {
		if ids[filepath.Base(filepath.Dir(m.file))] == m.id {
			got = append(got, m) // not another check's finding in this check's package
		}
	}
	if len(want) == 0 {
		t.Fatal("no expected findings in the testdata")
	}
	sameMarkers(t, got, want)
}
