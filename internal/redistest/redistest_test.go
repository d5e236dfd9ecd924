package redistest

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"
)

func TestRedis(t *testing.T) {
	s := Redis(t)
	c, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// No persistence: CONFIG GET save answers an empty value.
	fmt.Fprint(c, "CONFIG GET save\r\n")
	r := bufio.NewReader(c)
	var lines []string
	for range 5 {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.TrimSpace(l))
	}
	if lines[0] != "*2" || lines[3] != "$0" {
		t.Fatalf("CONFIG GET save = %q, want save disabled", lines)
	}
}

func TestMemcached(t *testing.T) {
	s := Memcached(t)
	c, err := net.Dial("tcp", s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, "set k 0 0 1\r\nv\r\nget k\r\n")
	r := bufio.NewReader(c)
	if l, _ := r.ReadString('\n'); strings.TrimSpace(l) != "STORED" {
		t.Fatalf("set: %q", l)
	}
}
