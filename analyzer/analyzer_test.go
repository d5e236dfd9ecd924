package analyzer_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/analyzer"
)

func TestRegistry(t *testing.T) {
	as, err := analyzer.Analyzers(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := analysis.Validate(as); err != nil {
		t.Fatal(err)
	}
	rules := analyzer.Rules()
	if len(as) != len(rules) {
		t.Fatalf("%d analyzers for %d rules", len(as), len(rules))
	}
	ids := map[string]bool{}
	var ops *analysis.Analyzer
	for i, a := range as {
		r := rules[i]
		if a.Name != r.Name || ids[r.ID] {
			t.Errorf("analyzer %d: name %q, rule %s %q (duplicate: %v)", i, a.Name, r.ID, r.Name, ids[r.ID])
		}
		ids[r.ID] = true
		if i > 0 && rules[i-1].ID >= r.ID {
			t.Errorf("rules not in ID order: %s before %s", rules[i-1].ID, r.ID)
		}
		if !strings.HasPrefix(a.Doc, a.Name+": ") || a.URL != r.URL() {
			t.Errorf("%s: Doc/URL not from the descriptor", r.ID)
		}
		// Every check returns its suppressed findings (report.Result), so
		// hosts can show them and directives work.
		if a.ResultType == nil || a.ResultType.String() != "*report.Result" {
			t.Errorf("%s: ResultType = %v, want *report.Result", r.ID, a.ResultType)
		}
		if len(a.Requires) != 1 || a.Requires[0].Name != "redisops" {
			t.Errorf("%s: Requires = %v, want just redisops", r.ID, a.Requires)
			continue
		}
		if ops == nil {
			ops = a.Requires[0]
		} else if a.Requires[0] != ops {
			t.Errorf("%s: does not share the set's redisops analyzer", r.ID)
		}
		// Only redisops has facts (summaries of lock helpers, and of
		// lock types' constructors: two fact types), which lockvet's
		// driver carries between the main module's packages alone
		// (internal/factgraph); a check with facts of its own would
		// have the checker run it on every dependency.
		if len(a.FactTypes) != 0 || len(a.Requires[0].FactTypes) != 2 {
			t.Errorf("%s: FactTypes %v, redisops' %v: want none, and redisops' two", r.ID, a.FactTypes, a.Requires[0].FactTypes)
		}
	}
	// A second set is built fresh: nothing shared, nothing global.
	bs, err := analyzer.Analyzers(nil)
	if err != nil {
		t.Fatal(err)
	}
	if bs[0] == as[0] || bs[0].Requires[0] == ops {
		t.Error("Analyzers returned shared analyzer values across calls")
	}
}

func TestConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg     analyzer.Config
		want    []string
		wantErr string
	}{
		{cfg: analyzer.Config{Checks: []string{"LV101", "ttlunit"}}, want: []string{"setnxexpire", "ttlunit"}},
		{cfg: analyzer.Config{Checks: []string{"lv102"}}, want: []string{"txacquire"}},
		{cfg: analyzer.Config{Checks: []string{"LV101", "LV102"}, Disable: []string{"LV102"}}, want: []string{"setnxexpire"}},
		{cfg: analyzer.Config{Checks: []string{"LV999"}}, wantErr: `unknown check "LV999"`},
		{cfg: analyzer.Config{Disable: []string{"nosuch"}}, wantErr: `unknown check "nosuch"`},
		{cfg: analyzer.Config{RedisVersion: "eight"}, wantErr: "redis version"},
	} {
		as, err := analyzer.Analyzers(&tc.cfg)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%+v: err = %v, want %q", tc.cfg, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", tc.cfg, err)
			continue
		}
		var got []string
		for _, a := range as {
			got = append(got, a.Name)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%+v: analyzers %v, want %v", tc.cfg, got, tc.want)
		}
	}
}

func TestLookup(t *testing.T) {
	if r := analyzer.Lookup("lv201"); r == nil || r.Name != "unsafeunlock" {
		t.Errorf("Lookup(lv201) = %v", r)
	}
	if r := analyzer.Lookup("checkthendel"); r == nil || r.ID != "LV202" {
		t.Errorf("Lookup(checkthendel) = %v", r)
	}
	if analyzer.Lookup("LV000") != nil {
		t.Error("Lookup(LV000) found a rule")
	}
}
