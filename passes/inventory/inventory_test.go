package inventory_test

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/inventory"
)

// TestNoDiagnostics: the inventory is not a check; it reports nothing.
func TestNoDiagnostics(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, lvtest.TestData(t), inventory.Analyzer, "./inventory/...")
}

// load runs the inventory on the test module's inventory packages and
// links them, as the CLI does.
func load(t *testing.T) map[string]*inventory.Site {
	t.Helper()
	pkgs := lvtest.Load(t, "./inventory/...")
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("test packages do not load")
	}
	g, err := checker.Analyze([]*analysis.Analyzer{inventory.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var results []*inventory.Result
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatal(act.Err)
		}
		results = append(results, act.Result.(*inventory.Result))
	}
	sites := inventory.Link(results)
	if !slices.IsSortedFunc(sites, func(a, b *inventory.Site) int {
		return cmp.Or(strings.Compare(a.Pos.Filename, b.Pos.Filename), cmp.Compare(a.Pos.Offset, b.Pos.Offset))
	}) {
		t.Error("sites are not sorted by position")
	}
	out := map[string]*inventory.Site{}
	for _, s := range sites {
		name := filepath.Base(s.Package) + "." + s.Func
		if out[name] != nil {
			t.Fatalf("two sites in %s", name)
		}
		out[name] = s
	}
	return out
}

func TestSites(t *testing.T) {
	t.Parallel()
	sites := load(t)
	type want struct {
		patterns string // space-separated
		source   string
		ttl      string // Expr, or "none"
		value    string
		separate bool
		maxTTL   int64
		release  string
		renewal  string
		scope    string
	}
	wants := map[string]want{
		"sites.Const":              {"lock:report", inventory.FromKey, "jobTTL", "30s", false, 30000, inventory.ReleaseScript, inventory.RenewNone, "direct"},
		"sites.Helper":             {"lock:job:*", inventory.FromKey, "time.Minute", "1m0s", true, 60000, inventory.ReleaseDel, inventory.RenewNone, "direct"},
		"sites.Sprintf":            {"order:*:*:mutex", inventory.FromKey, "none", "", false, 0, inventory.ReleaseDelEx, inventory.RenewNone, "direct"},
		"sites.Renewed":            {"lock:shard:*:owner", inventory.FromKey, "10 * time.Second", "10s", false, 20000, inventory.ReleaseDel, inventory.RenewBare + ", " + inventory.RenewChecked, "direct"},
		"sites.(*Mutex).Lock":      {"mutex:*", inventory.FromField, "ttl", "", false, 0, inventory.ReleaseDel, inventory.RenewNone, "direct"},
		"sites.func literal in Tx": {"lock:tx:*", inventory.FromKey, "time.Minute", "1m0s", true, 60000, inventory.ReleaseNone, inventory.RenewNone, "transaction"},
		"sites.take":               {"lock:invoice:*", inventory.FromCallers, "ttl", "2m0s (from callers)", false, 120000, inventory.ReleaseNone, inventory.RenewNone, "direct"},
		"sites.Anything":           {"", inventory.FromNone, "time.Second", "1s", false, 1000, inventory.ReleaseNone, inventory.RenewNone, "direct"},
		"lockpkg.Obtain":           {"lock:user:*", inventory.FromCallers, "ttl", "45s (from callers)", false, 0, inventory.ReleaseDel + ", " + inventory.ReleaseScript, inventory.RenewChecked, "direct"},
		"user.Own":                 {"lock:user:*", inventory.FromKey, "time.Minute", "1m0s", false, 60000, inventory.ReleaseDel + ", " + inventory.ReleaseScript, inventory.RenewNone, "direct"},
	}
	for name, w := range wants {
		s := sites[name]
		if s == nil {
			t.Errorf("%s: no site", name)
			continue
		}
		if got := strings.Join(s.Patterns, " "); got != w.patterns {
			t.Errorf("%s: patterns %q, want %q", name, got, w.patterns)
		}
		if s.Source != w.source {
			t.Errorf("%s: pattern source %q, want %q", name, s.Source, w.source)
		}
		ttl := s.TTL.Expr
		if s.TTL.None {
			ttl = "none"
		}
		if ttl != w.ttl || s.TTL.Value != w.value || (s.TTL.Separate != nil) != w.separate {
			t.Errorf("%s: TTL %q %q separate=%v, want %q %q separate=%v", name, ttl, s.TTL.Value, s.TTL.Separate != nil, w.ttl, w.value, w.separate)
		}
		if got := s.MaxTTL(); got != w.maxTTL {
			t.Errorf("%s: MaxTTL %d, want %d", name, got, w.maxTTL)
		}
		if got := s.Release(); got != w.release {
			t.Errorf("%s: release %q, want %q (%+v)", name, got, w.release, s.Releases)
		}
		if got := s.Renewal(); got != w.renewal {
			t.Errorf("%s: renewal %q, want %q (%+v)", name, got, w.renewal, s.Renewals)
		}
		if s.Scope != w.scope {
			t.Errorf("%s: scope %q, want %q", name, s.Scope, w.scope)
		}
		if s.Client != "go-redis/v9" {
			t.Errorf("%s: client %q", name, s.Client)
		}
	}
	for name := range sites {
		if _, ok := wants[name]; !ok {
			t.Errorf("unexpected site %s (%s)", name, sites[name].Pos)
		}
	}
	// The acquire forms are redisops' method names.
	if s := sites["sites.Renewed"]; s != nil && s.Acquire != "SetArgs" {
		t.Errorf("Renewed: acquire %q, want SetArgs", s.Acquire)
	}
	// A release through a helper in another package names the helper and
	// the call.
	if s := sites["lockpkg.Obtain"]; s != nil {
		found := false
		for _, r := range s.Releases {
			if r.Via == "lockpkg.Release" && strings.HasSuffix(r.At.Filename, "user.go") {
				found = true
			}
		}
		if !found {
			t.Errorf("Obtain: no release via lockpkg.Release from user.go: %+v", s.Releases)
		}
	}
}

func TestGlob(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, key string
		want         bool
	}{
		{"lock:job:*", "lock:job:report", true},
		{"lock:job:*", "lock:jobs", false},
		{"order:*:mutex", "order:42:mutex", true},
		{"order:*:mutex", "order:42:mutex:x", false},
		{"a?c", "abc", true},
		{"a[bc]d", "acd", true},
		{"a[^bc]d", "acd", false},
		{"a[a-c]d", "abd", true},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{inventory.Escape("k[1]*?"), "k[1]*?", true},
		{inventory.Escape("k[1]*?"), "k1xx", false},
	} {
		if got := inventory.Match(tc.pattern, tc.key); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pattern, tc.key, got, tc.want)
		}
	}
	for p, want := range map[string]bool{"*": false, "**": false, "?*": false, "lock:*": true, "": false} {
		if got := inventory.Useful(p); got != want {
			t.Errorf("Useful(%q) = %v, want %v", p, got, want)
		}
	}
}
