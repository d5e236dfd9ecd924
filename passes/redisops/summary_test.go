package redisops_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
)

// sumDump reports every summary at its function's name, and every op as
// dump does, so the testdata's `// want` comments pin summaries down.
var sumDump = &analysis.Analyzer{
	Name:     "sumdump",
	Doc:      "sumdump: report redisops summaries and operations",
	Requires: []*analysis.Analyzer{redisops.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[redisops.Analyzer].(*redisops.Result)
		for _, op := range res.Ops {
			pass.Reportf(op.Call.Pos(), "%s", describe(pass.Fset, op))
		}
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				if s := res.Summaries[pass.TypesInfo.Defs[fd.Name].(*types.Func)]; s != nil {
					pass.Reportf(fd.Name.Pos(), "summary %s: %s", s.Name, describeSummary(s))
				}
			}
		}
		return nil, nil
	},
}

func describeSummary(s *redisops.Summary) string {
	kind := map[lvconfig.WrapperKind]string{lvconfig.AcquireFunc: "acquire", lvconfig.ExpireFunc: "expire", lvconfig.ReleaseFunc: "release", lvconfig.SafeReleaseFunc: "saferelease"}[s.Kind]
	form := map[redisops.Form]string{redisops.Bare: " bare", redisops.CheckThenDel: " checkthendel", redisops.OwnerChecked: " owner"}[s.Form]
	out := fmt.Sprintf("%s%s key=%d %s", kind, form, s.Key, s.KeyForm)
	switch {
	case s.Value >= 0:
		out += fmt.Sprintf(" value=%d", s.Value)
	case s.ValueConst != "":
		out += " value=" + s.ValueConst
	}
	switch {
	case s.TTL >= 0:
		out += fmt.Sprintf(" ttl=%d/%s", s.TTL, unit(s.Unit))
	case s.TTLConst != "":
		out += " ttl=" + s.TTLConst
	}
	for _, f := range []struct {
		on   bool
		text string
	}{{s.NoTTL, "nottl"}, {s.Returns, "returns"}, {s.Lock, "lock"}, {s.Paired, "paired"}, {s.Scoped, "scoped"}} {
		if f.on {
			out += " " + f.text
		}
	}
	if s.Queued {
		out += fmt.Sprintf(" queued=%d", s.Batch)
	}
	if s.Via != "" {
		out += fmt.Sprintf(" via %s depth=%d", s.Via, s.Depth)
	}
	return out + " at " + s.Where
}

func TestSummaries(t *testing.T) {
	t.Parallel()
	analysistest.Run(t, lvtest.TestData(t), sumDump, "./summaries/...")
}

// A summary says what the declaration of the same function says.
func TestSummaryIsWrapper(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind lvconfig.WrapperKind
		spec string
		sum  redisops.Summary
	}{
		{lvconfig.AcquireFunc, "example.com/c.Lock:key=1,value=2,ttl=3,unit=duration",
			redisops.Summary{Func: "example.com/c.Lock", Kind: lvconfig.AcquireFunc, Key: 1, Value: 2, TTL: 3, Unit: redisops.Duration}},
		{lvconfig.AcquireFunc, "(example.com/c.S).TryLock:key=0,ttl=none",
			redisops.Summary{Func: "(example.com/c.S).TryLock", Kind: lvconfig.AcquireFunc, Key: 0, Value: -1, TTL: -1, NoTTL: true}},
		{lvconfig.ReleaseFunc, "example.com/c.Unlock:key=1",
			redisops.Summary{Func: "example.com/c.Unlock", Kind: lvconfig.ReleaseFunc, Key: 1, Value: -1, TTL: -1}},
		{lvconfig.ExpireFunc, "example.com/c.Renew:key=0,ttl=1,unit=seconds",
			redisops.Summary{Func: "example.com/c.Renew", Kind: lvconfig.ExpireFunc, Key: 0, Value: -1, TTL: 1, Unit: redisops.Seconds}},
		{lvconfig.SafeReleaseFunc, "example.com/c.Release:key=1,value=2",
			redisops.Summary{Func: "example.com/c.Release", Kind: lvconfig.SafeReleaseFunc, Key: 1, Value: 2, TTL: -1}},
	} {
		ws, err := lvconfig.ParseWrappers(c.kind, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		want, got := ws[0], c.sum.Wrapper()
		want.Spec, got.Spec = "", ""
		if fmt.Sprint(describeWrapper(want)) != fmt.Sprint(describeWrapper(got)) {
			t.Errorf("%s: the summary's wrapper is %s, the declaration's %s", c.spec, describeWrapper(got), describeWrapper(want))
		}
	}
}

func describeWrapper(w lvconfig.Wrapper) string {
	p := func(p *lvconfig.Param) string {
		if p == nil {
			return "-"
		}
		return p.String()
	}
	return strings.Join([]string{w.Kind.Setting(), w.Func, p(w.Key), p(w.Value), p(w.TTL), fmt.Sprint(w.NoTTL), w.Unit}, " ")
}
