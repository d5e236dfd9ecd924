package operator

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/internal/clitest"
	"github.com/lockvet/lockvet/internal/driver"
)

func TestMain(m *testing.M) { clitest.Main(m) }

// runInventory runs lockvet inventory on the example module in the test's
// process.
func runInventory(args ...string) clitest.RunResult {
	var stdout, stderr strings.Builder
	code := Inventory(append([]string{"-C", clitest.ExampleDir()}, args...), &stdout, &stderr)
	return clitest.RunResult{Stdout: stdout.String(), Stderr: stderr.String(), Code: code}
}

// inventoryJSON is the JSON output of lockvet inventory.
type inventoryJSON struct {
	Version int        `json:"version"`
	Sites   []siteJSON `json:"sites"`
}

func inventorySites(t *testing.T, args ...string) map[string]siteJSON {
	t.Helper()
	r := runInventory(append([]string{"-format", "json"}, args...)...)
	r.WantCode(t, driver.ExitClean)
	var inv inventoryJSON
	if err := json.Unmarshal([]byte(r.Stdout), &inv); err != nil {
		t.Fatalf("inventory -format json: %v\n%s", err, r.Stdout)
	}
	if inv.Version != inventoryVersion {
		t.Errorf("version %d, want %d", inv.Version, inventoryVersion)
	}
	out := map[string]siteJSON{}
	for _, s := range inv.Sites {
		out[s.Position] = s
	}
	return out
}

// TestInventory: the example module's lock sites, with the incident's
// lock (SETNX, then EXPIRE) and its finding.
func TestInventory(t *testing.T) {
	t.Parallel()
	sites := inventorySites(t)
	incident, ok := sites["scheduler/scheduler.go:64:13"]
	if !ok {
		t.Fatalf("no site for the incident's SetNX; sites: %v", keys(sites))
	}
	if strings.Join(incident.Patterns, " ") != "lock:job:*" || incident.Client != "go-redis/v9" || incident.Acquire != "SetNX" ||
		incident.TTL.Separate == nil || incident.TTL.Expr != "s.lockTTL" || incident.Release != "owner-checked script" {
		t.Errorf("incident site: %+v", incident)
	}
	if len(incident.Findings) != 1 || incident.Findings[0].Rule != "LV101" {
		t.Errorf("incident site findings: %+v", incident.Findings)
	}
	for pos, want := range map[string]struct{ pattern, release, renewal, ttl string }{
		"orders/orders.go:62:9":        {"lock:order:*", "owner-checked script", "none", "15s"},
		"billing/billing.go:32:9":      {"lock:billing:*", "bare DEL", "bare", ""},
		"billing/ledger.go:17:13":      {"lock:ledger:*", "owner-checked script", "none", ""},
		"internal/lock/lock.go:53:13":  {"lock:job:*", "owner-checked script", "owner-checked", ""},
		"scheduler/leader.go:34:9":     {"scheduler:leader", "owner-checked script", "none", ""},
		"scheduler/jobs_gen.go:14:13":  {"lock:job:nightly-report", "none", "none", "10m0s"},
		"orders/payment.go:19:14":      {"lock:payment:*", "owner-checked script", "none", "2m0s"},
		"billing/billing.go:77:12":     {"lock:billing:nightly", "bare DEL", "none", "2h0m0s"},
		"scheduler/lease.go:53:13":     {"lease:*", "bare DEL, owner-checked script", "owner-checked", ""},
		"orders/refund.go:13:13":       {"lock:refund:*", "owner-checked script", "none", "1m0s"},
		"orders/orders.go:79:13":       {"lock:sku:*", "owner-checked script", "none", "30ns"},
		"orders/payment.go:33:14":      {"lock:shipment:*", "owner-checked script", "none", "2m0s"},
		"scheduler/scheduler.go:64:13": {"lock:job:*", "owner-checked script", "none", ""},
	} {
		s, ok := sites[pos]
		if !ok {
			t.Errorf("no site at %s", pos)
			continue
		}
		if got := strings.Join(s.Patterns, " "); got != want.pattern || s.Release != want.release || s.Renewal != want.renewal || s.TTL.Value != want.ttl {
			t.Errorf("%s: pattern %q release %q renewal %q ttl %q, want %+v", pos, got, s.Release, s.Renewal, s.TTL.Value, want)
		}
	}
	if len(sites) != 13 {
		t.Errorf("%d sites, want 13 (test files left out): %v", len(sites), keys(sites))
	}
	ledger := sites["billing/ledger.go:17:13"]
	if !ledger.TTL.None || len(ledger.Findings) != 1 || ledger.Findings[0].Rule != "LV103" {
		t.Errorf("ledger site: TTL %+v, findings %+v", ledger.TTL, ledger.Findings)
	}

	// -test adds the test file's lock.
	if withTests := inventorySites(t, "-test"); len(withTests) != len(sites)+1 {
		t.Errorf("-test: %d sites, want %d", len(withTests), len(sites)+1)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestInventoryFormats: text and markdown list the same sites, the output
// is the same from run to run, and a bad -format is an error.
func TestInventoryFormats(t *testing.T) {
	t.Parallel()
	text := runInventory()
	text.WantCode(t, driver.ExitClean)
	if again := runInventory(); again.Stdout != text.Stdout {
		t.Errorf("two runs differ:\n%s\n---\n%s", text.Stdout, again.Stdout)
	}
	if !strings.Contains(text.Stdout, "scheduler/scheduler.go:64:13: lock:job:*\n") ||
		!strings.Contains(text.Stdout, "\tfinding  scheduler/scheduler.go:69:3: LV101: ") {
		t.Errorf("text output:\n%s", text.Stdout)
	}
	md := runInventory("-format", "markdown", "./scheduler/...")
	md.WantCode(t, driver.ExitClean)
	lines := strings.Split(strings.TrimSpace(md.Stdout), "\n")
	if len(lines) != 2+4 || !strings.HasPrefix(lines[0], "| Key pattern |") {
		t.Errorf("markdown for ./scheduler/... (4 sites):\n%s", md.Stdout)
	}
	if !strings.Contains(md.Stdout, "| `lock:job:*` | go-redis/v9 | `SetNX` |") {
		t.Errorf("markdown output:\n%s", md.Stdout)
	}
	runInventory("-format", "yaml").WantCode(t, driver.ExitError)
	runInventory("./nothing/...").WantCode(t, driver.ExitError)
}
