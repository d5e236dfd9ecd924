// Package redistest starts real redis-server and memcached processes for
// tests: each on a free loopback port, with no persistence, stopped when the
// test ends.
//
// When the binary is not installed the test is skipped with a message
// saying how to enable it, unless LOCKVET_REQUIRE_REDIS=1 (set by CI), in
// which case the missing server is a test failure: the real-server tests
// must never silently not run there.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Server is a running server process.
type Server struct {
	Addr string // host:port on loopback
	cmd  *exec.Cmd
}

// Required reports whether real servers are required (CI).
func Required() bool { return os.Getenv("LOCKVET_REQUIRE_REDIS") == "1" }

// Redis starts a redis-server for the test and returns it.
func Redis(t testing.TB) *Server {
	t.Helper()
	return RedisWith(t)
}

// RedisWith starts a redis-server like Redis with extra configuration
// arguments appended (e.g. "--cluster-enabled", "yes").
func RedisWith(t testing.TB, extra ...string) *Server {
	t.Helper()
	bin := lookup(t, "redis-server", "apt-get install redis-server")
	port := freePort(t)
	args := []string{"--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "yes"}
	s := start(t, bin, append(args, extra...)...)
	s.Addr = fmt.Sprintf("127.0.0.1:%d", port)
	s.wait(t, "PING\r\n", "+PONG")
	return s
}

// Memcached starts a memcached for the test and returns it.
func Memcached(t testing.TB) *Server {
	t.Helper()
	bin := lookup(t, "memcached", "apt-get install memcached")
	port := freePort(t)
	args := []string{"-l", "127.0.0.1", "-p", fmt.Sprint(port), "-U", "0"}
	if os.Geteuid() == 0 {
		args = append(args, "-u", "root")
	}
	s := start(t, bin, args...)
	s.Addr = fmt.Sprintf("127.0.0.1:%d", port)
	s.wait(t, "version\r\n", "VERSION")
	return s
}

func lookup(t testing.TB, name, install string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		msg := fmt.Sprintf("%s not found in PATH: install it (%s) to run this test against a real server", name, install)
		if Required() {
			t.Fatalf("%s; LOCKVET_REQUIRE_REDIS=1 makes this a failure", msg)
		}
		t.Skip(msg + ", or set LOCKVET_REQUIRE_REDIS=1 to make its absence a failure")
	}
	return bin
}

// FreePort returns a loopback TCP port that was free a moment ago (for a
// second port a server needs, such as a cluster bus port).
func FreePort(t testing.TB) int {
	t.Helper()
	return freePort(t)
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func start(t testing.TB, bin string, args ...string) *Server {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Errorf("%s did not exit after kill", bin)
		}
		if t.Failed() {
			t.Logf("%s output:\n%s", bin, out.String())
		}
	})
	return &Server{cmd: cmd}
}

// wait polls the server with a raw protocol request until it answers.
func (s *Server) wait(t testing.TB, req, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", s.Addr, 200*time.Millisecond)
		if err == nil {
			c.SetDeadline(time.Now().Add(time.Second))
			fmt.Fprint(c, req)
			line, err := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if err == nil && strings.HasPrefix(line, want) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("server at %s did not answer within 10s", s.Addr)
}

// Pid is the server's process ID.
func (s *Server) Pid() int { return s.cmd.Process.Pid }
