package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
)

// TestLiveBinary: lockvet live and lockvet release run the lockvet-live
// binary beside lockvet, which takes lockvet's place: its output and
// exit status are lockvet's, and SIGTERM sent to lockvet ends an
// exporter with status 0. (The commands' own tests are in
// internal/operator/live; miniredis stands in for a server here.)
func TestLiveBinary(t *testing.T) {
	t.Parallel()
	m := miniredis.RunT(t)
	m.Set("lock:job:report", "worker-7")

	r := lockvet(t, t.TempDir(), "live", "-redis", m.Addr(), "-pattern", "lock:*")
	r.WantCode(t, driver.ExitFindings)
	if !strings.HasPrefix(r.Stdout, "lock:job:report: no TTL") {
		t.Errorf("lockvet live: stdout %q", r.Stdout)
	}
	r = lockvet(t, t.TempDir(), "release", "-redis", m.Addr(), "-key", "lock:job:report", "-reason", "stuck")
	r.WantCode(t, driver.ExitClean)
	if !strings.HasPrefix(r.Stdout, `lock:job:report  value "worker-7"  TTL none`) {
		t.Errorf("lockvet release: stdout %q", r.Stdout)
	}

	if setupErr != nil {
		t.Fatal(setupErr)
	}
	cmd := exec.Command(lockvetBin, "live", "-listen", "127.0.0.1:0", "-redis", m.Addr(), "-pattern", "lock:*", "-interval", "1s")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(stderr)
	url := ""
	for url == "" && sc.Scan() {
		if m := regexp.MustCompile(`serving (http://\S+/metrics)`).FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	go io.Copy(io.Discard, stderr)
	if url == "" {
		t.Fatalf("lockvet live -listen did not say where it serves: %v", sc.Err())
	}
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(url)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(body), "lockvet_lock_keys_without_ttl{") {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no lock figures on %s within a minute: %v", url, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("lockvet live -listen after SIGTERM: %v", err)
	}
}

// TestLiveBinaryMissing: without lockvet-live beside lockvet or on PATH,
// lockvet live says how to install it and exits 2.
func TestLiveBinaryMissing(t *testing.T) {
	t.Parallel()
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	data, err := os.ReadFile(lockvetBin)
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), "lockvet")
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	r := clitest.Command(t, t.TempDir(), []string{"PATH=" + t.TempDir()}, alone, "live", "-redis", "127.0.0.1:1")
	r.WantCode(t, driver.ExitError)
	if want := "lockvet live: this command is in the lockvet-live binary, found neither next to lockvet nor on PATH; install it with go install github.com/lockvet/lockvet/cmd/lockvet-live@latest\n"; r.Stderr != want {
		t.Errorf("stderr %q, want %q", r.Stderr, want)
	}
}
