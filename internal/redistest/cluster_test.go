package redistest

import (
	"strings"
	"testing"
)

func TestCluster(t *testing.T) {
	nodes := Cluster(t, 3)
	for _, s := range nodes {
		info, err := Do(s.Addr, "CLUSTER", "INFO")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(info, "cluster_size:3") || !strings.Contains(info, "cluster_slots_assigned:16384") {
			t.Errorf("%s: CLUSTER INFO:\n%s", s.Addr, info)
		}
	}
	if _, err := Do(nodes[0].Addr, "NO-SUCH-COMMAND"); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Errorf("an error reply: %v", err)
	}
}
