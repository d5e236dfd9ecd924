package lockid_test

import (
	"fmt"
	"go/ast"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/lockvet/lockvet/internal/lua"
	"github.com/lockvet/lockvet/passes/internal/keyid"
	"github.com/lockvet/lockvet/passes/internal/lockid"
	"github.com/lockvet/lockvet/passes/internal/lvtest"
	"github.com/lockvet/lockvet/passes/redisops"
)

// TestIndexSameAnswers: the candidate index changes no answer. Over every
// package of the test module, keyid.Anchors is a sound prefilter for
// Same and SameShape, Releases equals the plain scan of every operation with
// Match, and Of finds the same same-function and same-shape evidence as
// the plain scan of every acquire, by key or by a slice the key is
// collected in (the evidence that is no index answer, ViaHelper,
// Counterpart, Stored and Token, is left out).
func TestIndexSameAnswers(t *testing.T) {
	t.Parallel()
	pkgs := lvtest.Load(t, "./...")
	var problems []string
	checked := 0
	a := &analysis.Analyzer{
		Name:     "indexcheck",
		Doc:      "indexcheck: compare indexed answers with plain scans",
		Requires: []*analysis.Analyzer{redisops.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[redisops.Analyzer].(*redisops.Result)
			errorf := func(format string, args ...any) {
				problems = append(problems, pass.Pkg.Path()+": "+fmt.Sprintf(format, args...))
			}
			var keys []keyid.Form
			var at []ast.Expr
			for _, op := range res.Ops {
				for _, k := range op.Keys {
					keys, at = append(keys, op.FormOf(k)), append(at, k)
				}
			}
			for i, x := range keys {
				for j, y := range keys {
					if (keyid.Same(x, y) || keyid.SameShape(x, y)) && !overlap(keyid.Anchors(x), keyid.Anchors(y)) {
						errorf("Same or SameShape(%s, %s) but no anchor in common", pass.Fset.Position(at[i].Pos()), pass.Fset.Position(at[j].Pos()))
					}
				}
			}
			locks := lockid.New(pass, res)
			for _, a := range locks.Acquires() {
				got, want := locks.Releases(a), plainReleases(locks, res, a)
				// The plain scan does not say where a Stored key is stored.
				same := func(x, y lockid.Release) bool {
					x.Store = nil
					return x == y
				}
				if !slices.EqualFunc(got, want, same) {
					errorf("Releases(%s): indexed %d, plain %d", pass.Fset.Position(a.Call.Pos()), len(got), len(want))
				}
				checked++
			}
			for _, op := range res.Ops {
				for _, k := range op.KeyArgs() {
					got, want := locks.Of(op, k), plainOf(locks, op, k)
					switch {
					case want != nil && (got == nil || got.Acquire != want.Acquire || got.Evidence != want.Evidence):
						errorf("Of(%s): indexed %+v, plain %+v", pass.Fset.Position(op.Call.Pos()), got, want)
					case want == nil && got != nil && got.Evidence != lockid.ViaHelper && got.Evidence != lockid.Counterpart && got.Evidence != lockid.Stored && got.Evidence != lockid.Token:
						errorf("Of(%s): indexed %+v, plain nil", pass.Fset.Position(op.Call.Pos()), got)
					}
					checked++
				}
			}
			return nil, nil
		},
	}
	if _, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, &checker.Options{Sequential: true}); err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if checked == 0 {
		t.Fatal("nothing compared")
	}
	t.Logf("%d answers compared", checked)
}

func overlap(a, b []keyid.Anchor) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// plainReleases is Releases as a scan of every operation.
func plainReleases(locks *lockid.Locks, res *redisops.Result, a *redisops.Op) []lockid.Release {
	var rels []lockid.Release
	for _, d := range res.Ops {
		var keys []ast.Expr
		checked := false
		switch d.Kind {
		case redisops.Delete:
			keys = d.KeyArgs()
		case redisops.CompareDelete:
			keys, checked = d.Keys[:1], true
		case redisops.Script:
			if d.ScriptSrc == "" || len(d.Keys) == 0 {
				continue
			}
			switch lua.Classify(d.ScriptSrc).Kind {
			case lua.CompareAndDelete:
				checked = true
			case lua.UncheckedDelete:
			default:
				continue
			}
			keys = d.Keys[:1]
		default:
			continue
		}
		for _, k := range keys {
			ev, call := locks.Match(a, d, k)
			if ev == 0 || ev == lockid.SameFunc && !lockid.After(a, d) {
				continue
			}
			rels = append(rels, lockid.Release{Op: d, Key: k, Evidence: ev, Call: call, Checked: checked})
			break
		}
	}
	return rels
}

// plainOf is Of without the helper evidence, as a scan of every acquire:
// by key (Same in the function, SameShape elsewhere), then by a slice
// the acquire's key is collected in (Collects).
func plainOf(locks *lockid.Locks, op *redisops.Op, key ast.Expr) *lockid.Lock {
	if key == nil {
		return nil
	}
	if op.KeysSpread {
		return plainCollected(locks, op, key)
	}
	for _, a := range locks.Acquires() {
		if a.Func == nil || op.Func == nil || a.Call.Pos() >= op.Call.Pos() {
			continue
		}
		if a.Func != op.Func && !(a.Func.Node.Pos() <= op.Func.Node.Pos() && op.Func.Node.End() <= a.Func.Node.End()) {
			continue
		}
		if keyid.Same(a.KeyForm(), op.FormOf(key)) {
			return &lockid.Lock{Acquire: a, Evidence: lockid.SameFunc}
		}
	}
	for _, a := range locks.Acquires() {
		if a.Func != op.Func && keyid.SameShape(a.KeyForm(), op.FormOf(key)) && locks.ShapeCounts(a, op, key) {
			return &lockid.Lock{Acquire: a, Evidence: lockid.SameShape}
		}
	}
	return plainCollected(locks, op, key)
}

// plainCollected finds the first acquire whose key is collected in the
// slice key names (the slice, or an element of it ranged over); in one
// function the acquire must come first.
func plainCollected(locks *lockid.Locks, op *redisops.Op, key ast.Expr) *lockid.Lock {
	for _, a := range locks.Acquires() {
		if a == op {
			continue
		}
		if ev := locks.Collects(a, op, key); ev != 0 && (ev != lockid.SameFunc || a.Call.Pos() < op.Call.Pos()) {
			return &lockid.Lock{Acquire: a, Evidence: ev}
		}
	}
	return nil
}
