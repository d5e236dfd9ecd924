package redisops_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/factgraph"
	"github.com/lockvet/lockvet/passes/redisops"
)

// TestFactWorkLinear: the fact transport's work (facts exported, facts
// read, calls of imported helpers turned into operations), counted and
// not timed, grows with the helpers and their call sites and no faster:
// 4x the helpers and 4x the call sites cost 4x the work.
func TestFactWorkLinear(t *testing.T) {
	work := func(helpers, calls int) (int64, int) {
		pkgs := writeHelperModule(t, helpers, calls)
		lock, err := analyzer.LockPackages(nil)
		if err != nil {
			t.Fatal(err)
		}
		before := redisops.FactWork()
		g, err := checker.Analyze([]*analysis.Analyzer{redisops.Analyzer}, factgraph.Plan(pkgs, lock).Link(pkgs), &checker.Options{Sequential: true})
		if err != nil {
			t.Fatal(err)
		}
		w := redisops.FactWork() - before
		ops := 0
		for _, act := range g.Roots {
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			if act.Package.Name == "users" {
				ops = len(act.Result.(*redisops.Result).Ops)
			}
		}
		return w, ops
	}
	w1, ops1 := work(8, 32)
	w4, ops4 := work(32, 128)
	t.Logf("work %d for 8 helpers and 32 call sites, %d for 32 and 128", w1, w4)
	if ops1 != 2*32 || ops4 != 2*128 {
		t.Errorf("operations at the call sites: %d and %d, want %d and %d (every call of a helper)", ops1, ops4, 2*32, 2*128)
	}
	if r := float64(w4) / float64(w1); r > 4.2 || r < 3.8 {
		t.Errorf("4x the helpers and call sites cost %.2fx the work (want 4x)", r)
	}
}

// writeHelperModule writes a module with a package of n pairs of lock
// helpers (Lock<i>, Unlock<i>) on go-redis v9 and a package that calls
// them at calls sites (each a Lock and an Unlock), and loads both.
func writeHelperModule(t *testing.T, n, calls int) []*packages.Package {
	t.Helper()
	dir := synthModule(t)
	var h, u strings.Builder
	h.WriteString("package helpers\n\nimport (\n\t\"context\"\n\t\"time\"\n\n\t\"github.com/redis/go-redis/v9\"\n)\n\nvar rdb = redis.NewClient(&redis.Options{})\n")
	for i := range n {
		fmt.Fprintf(&h, "\nfunc Lock%d(ctx context.Context, key string, ttl time.Duration) (bool, error) {\n\treturn rdb.SetNX(ctx, key, \"1\", ttl).Result()\n}\n", i)
		fmt.Fprintf(&h, "\nfunc Unlock%d(ctx context.Context, key string) error {\n\treturn rdb.Del(ctx, key).Err()\n}\n", i)
	}
	u.WriteString("package users\n\nimport (\n\t\"context\"\n\t\"time\"\n\n\t\"lockvet.test/helpers\"\n)\n")
	for i := range calls {
		fmt.Fprintf(&u, "\nfunc Job%d(ctx context.Context, id string) {\n\tif ok, err := helpers.Lock%d(ctx, \"job:\"+id, time.Minute); err != nil || !ok {\n\t\treturn\n\t}\n\thelpers.Unlock%d(ctx, \"job:\"+id)\n}\n", i, i%n, i%n)
	}
	for name, src := range map[string]string{"helpers/h.go": h.String(), "users/u.go": u.String()} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := &packages.Config{
		Mode: packages.LoadSyntax | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, "./helpers", "./users")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 2 || packages.PrintErrors(pkgs) > 0 {
		t.Fatal("generated module does not load")
	}
	return pkgs
}
