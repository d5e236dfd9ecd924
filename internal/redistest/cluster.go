package redistest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Cluster starts n redis-servers with cluster mode on, gives each an
// equal share of the 16384 slots, joins them, and waits until every node
// says the cluster is ok. Each node is a master with no replica. It takes
// about a second: no redis-cli, no replication.
func Cluster(t testing.TB, n int) []*Server {
	t.Helper()
	var nodes []*Server
	var bus []int
	for range n {
		p := freePort(t)
		dir := t.TempDir()
		nodes = append(nodes, RedisWith(t, "--cluster-enabled", "yes", "--cluster-port", fmt.Sprint(p),
			"--cluster-config-file", filepath.Join(dir, "nodes.conf"), "--dir", dir, "--cluster-node-timeout", "5000"))
		bus = append(bus, p)
	}
	for i, s := range nodes {
		lo, hi := i*16384/n, (i+1)*16384/n-1
		if _, err := Do(s.Addr, "CLUSTER", "ADDSLOTSRANGE", fmt.Sprint(lo), fmt.Sprint(hi)); err != nil {
			t.Fatalf("CLUSTER ADDSLOTSRANGE on %s: %v", s.Addr, err)
		}
	}
	for i := 1; i < n; i++ {
		host, port, _ := strings.Cut(nodes[i].Addr, ":")
		if _, err := Do(nodes[0].Addr, "CLUSTER", "MEET", host, port, fmt.Sprint(bus[i])); err != nil {
			t.Fatalf("CLUSTER MEET: %v", err)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, s := range nodes {
		for {
			info, err := Do(s.Addr, "CLUSTER", "INFO")
			if err == nil && strings.Contains(info, "cluster_state:ok") && strings.Contains(info, fmt.Sprintf("cluster_known_nodes:%d", n)) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the cluster did not form within 20s: %s: %v\n%s", s.Addr, err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return nodes
}

// Do sends one command to the server at addr on a new connection and
// returns a status, integer or bulk string reply; an error reply is an
// error.
func Do(addr string, args ...string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := io.WriteString(c, b.String()); err != nil {
		return "", err
	}
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimSuffix(line, "\r\n")
	switch {
	case line == "":
		return "", fmt.Errorf("empty reply")
	case line[0] == '+' || line[0] == ':':
		return line[1:], nil
	case line[0] == '-':
		return "", fmt.Errorf("%s", line[1:])
	case line[0] == '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", fmt.Errorf("reply %q", line)
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return "", fmt.Errorf("unexpected reply %q", line)
}
