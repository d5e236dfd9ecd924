package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
)

// TestWrapperFlags: -acquire-funcs, -release-funcs and -safe-release-funcs
// declare the Store's methods, and LV201 reports the release wrapper
// through them, in the CLI and under go vet; without the flags nothing is
// reported.
func TestWrapperFlags(t *testing.T) {
	t.Parallel()
	dir := clitest.PassesDir()
	const store = "lockvet.test/wrappers/store.Store"
	flags := []string{
		"-acquire-funcs", "(*" + store + ").TryLock:key=1,value=2,ttl=3;(*" + store + ").Acquire:key=key,value=token,ttl=ttl",
		"-release-funcs=(*" + store + ").Unlock:key=1",
		"-safe-release-funcs", "(" + store + ").Release:key=key,value=token",
	}
	// The expected findings: the `// want` lines of the package.
	var want []clitest.Marker
	f, err := os.Open(filepath.Join(dir, "wrappers", "unsafeunlock", "unsafeunlock.go"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), "// want ") {
			want = append(want, clitest.Marker{File: "wrappers/unsafeunlock/unsafeunlock.go", Line: n, ID: "LV201"})
		}
	}
	if len(want) == 0 {
		t.Fatal("no expected findings in the testdata")
	}

	r := lockvet(t, dir, append(flags, "./wrappers/unsafeunlock")...)
	r.WantCode(t, driver.ExitFindings)
	clitest.SameMarkers(t, clitest.ParseText(t, r.Stdout), want)

	r = lockvet(t, dir, "./wrappers/unsafeunlock")
	r.WantCode(t, driver.ExitClean)
	if r.Stdout != "" {
		t.Errorf("without declarations: %s", r.Stdout)
	}

	t.Run("go vet", func(t *testing.T) {
		needSlow(t, govetHost)
		v := command(t, dir, "go", append(append([]string{"vet", "-vettool=" + lockvetBin}, flags...), "./wrappers/unsafeunlock")...)
		v.WantCode(t, 1)
		var got []clitest.Marker
		for line := range strings.Lines(v.Stderr) {
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
			got = append(got, clitest.Marker{File: filepath.ToSlash(rel), Line: n, ID: "LV201"})
		}
		clitest.SameMarkers(t, got, want)
	})

	// A malformed declaration is a usage error.
	r = lockvet(t, dir, "-release-funcs", "(*"+store+").Unlock", "./wrappers/unsafeunlock")
	r.WantCode(t, driver.ExitError)
	if !strings.Contains(r.Stderr, `release-funcs "(*lockvet.test/wrappers/store.Store).Unlock": option key is required`) {
		t.Errorf("stderr = %q", r.Stderr)
	}
}
