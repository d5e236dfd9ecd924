package proof

// docs/proof.md is written by `go test ./proof -update` from the run's
// recorded outcomes, lockvet's findings on the shapes and the fixes it
// made; a plain run checks that the file is still what it would write.

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockvet/lockvet/analyzer"
)

const docFile = "../docs/proof.md"

// A case is one row of the proof table.
type proofCase struct {
	ID       string
	Title    string
	Check    string // rule ID, "" for client templates
	Shape    string // shape package under internal/buggy and internal/fixed, or a path
	Code     string // functions of the shape the case runs
	Test     string // the test that runs it
	Backends []string
}

var redisBoth = []string{realRedis, miniRedis}

var cases = []proofCase{
	{"1", "SETNX, then EXPIRE; the holder is SIGKILLed at each point between commands", "LV101", "setnxexpire", "Acquire", "TestProofSetNXExpire", redisBoth},
	{"1b", "GETSET takes over a stale lock, then EXPIRE; the holder is SIGKILLed at each point between commands", "LV101", "getsetexpire", "Takeover", "TestProofGetSetExpire", redisBoth},
	{"2", "SETNX and EXPIRE queued in one transaction while another owner holds the lock", "LV102", "txacquire", "Acquire", "TestProofTxAcquire", redisBoth},
	{"3a", "bare DEL after the lock expired and another process took it", "LV201", "unsafeunlock", "Mutex.Unlock", "TestProofUnsafeUnlock", redisBoth},
	{"3b", "GET, compare, DEL with a pause before the DEL in which the lock expires and another process takes it", "LV202", "checkthendel", "Mutex.Unlock", "TestProofCheckThenDel", redisBoth},
	{"3b2", "GET, prefix compare (the owner is a process), DEL with a pause before the DEL in which the lock expires and another process takes it", "LV202", "prefixdel", "Locker.Unlock", "TestProofPrefixDel", redisBoth},
	{"3c", "a lock acquired with a constant value and released by DEL after it expired and the same code in another process took it", "LV204", "constvalue", "WithLock", "TestProofConstValue", redisBoth},
	{"3d", "a Lock/Unlock helper pair with a constant value: the late Unlock's DEL after the lock expired and the same code in another process took it", "LV204", "constpair", "lock, unlock", "TestProofConstPair", redisBoth},
	{"3e", "GET finds the lock missing, then a plain SET takes it; another process takes it in between", "LV107", "checkthenset", "Mutex.TryLock", "TestProofCheckThenSet", redisBoth},
	{"3f", "a lock struct: Lock keeps the key in a field and writes a random value it does not keep; the late Unlock's DEL after the lock expired and another process took it", "LV201", "lockstruct", "mutex.Lock, mutex.Unlock", "TestProofLockStruct", redisBoth},
	{"4", "bare PEXPIRE renewal after the lock expired and another process took it", "LV203", "unsaferenew", "Mutex.Refresh", "TestProofUnsafeRenew", redisBoth},
	{"5a", "TTL written as 30 where a time.Duration is expected", "LV104", "ttlunit", "AcquireUntyped", "TestProofTTLUnit", redisBoth},
	{"5b", "TTL converted with time.Duration(ttl.Seconds())", "LV104", "ttlunit", "AcquireSeconds", "TestProofTTLUnit", redisBoth},
	{"5c", "time.Duration passed as the PEXPIRE argument of a script", "LV104", "ttlunit", "Extend", "TestProofTTLUnit", redisBoth},
	{"5d", "redigo SET NX with a count of milliseconds given to EX", "LV104", "redigo", "AcquireFor", "TestProofAdapters", redisBoth},
	{"6a", "SETNX whose reply is read with .Err() only, lock held by another", "LV105", "acquireresult", "TryAcquire", "TestProofAcquireResult", redisBoth},
	{"6b", "redigo SET NX on a held lock, and the template's acquire", "", "internal/clients/redigo", "Mutex.TryLock", "TestProofAcquireResult", redisBoth},
	{"6c", "redigo SET NX whose error only is read, lock held by another", "LV105", "redigo", "TryAcquire", "TestProofAdapters", redisBoth},
	{"7a", "go-redis v9: acquire, renew, release", "", "goredis9", "Mutex.TryLock, Refresh, Unlock", "TestProofClients", redisBoth},
	{"7b", "go-redis v8: acquire, renew, release", "", "goredis8", "Mutex.TryLock, Refresh, Unlock", "TestProofClients", redisBoth},
	{"7c", "redigo rewrite-table template: acquire, renew, release", "", "internal/clients/redigo", "Mutex.TryLock, Refresh, Unlock", "TestProofClients", redisBoth},
	{"7d", "rueidis rewrite-table template: acquire, renew, release", "", "internal/clients/rueidis", "Mutex.TryLock, Refresh, Unlock", "TestProofClients", redisBoth},
	{"7e", "gomemcache rewrite-table template: acquire, renew, release", "", "internal/clients/memcache", "Mutex.TryLock, Refresh, Unlock", "TestProofClients", []string{realMemc}},
	{"7f", "redigo: lockvet's fixes of acquire, renew, release", "", "redigo", "Mutex.TryLock, Refresh, Unlock", "TestProofAdapters", redisBoth},
	{"7g", "rueidis: lockvet's fixes of acquire, renew, release", "", "rueidis", "Mutex.TryLock, Refresh, Unlock", "TestProofAdapters", redisBoth},
	{"7h", "gomemcache: lockvet's fixes of acquire, renew, release", "", "memcache", "Mutex.TryLock, Refresh, Unlock", "TestProofAdapters", []string{realMemc}},
	{"8a", "8 workers, random pauses before the release, bare DEL release", "LV201", "unsafeunlock", "Mutex.TryLock, Mutex.Unlock", "TestProofInterleaving", redisBoth},
	{"8b", "8 workers, random pauses between GET and DEL, GET-compare-DEL release", "LV202", "checkthendel", "Mutex.TryLock, Mutex.Unlock", "TestProofInterleaving", redisBoth},
}

func caseByID(id string) *proofCase {
	for i := range cases {
		if cases[i].ID == id {
			return &cases[i]
		}
	}
	return nil
}

// unrecorded lists what a run did not record that docs/proof.md is
// written from: each case with the backends it has no outcome on, and
// TestProofShapes when lockvet's findings and fixes were not computed.
func unrecorded(rec map[string]map[string]outcome, res map[string]*shapePkg) []string {
	var out []string
	for _, c := range cases {
		var bs []string
		for _, b := range c.Backends {
			if _, ok := rec[c.ID][b]; !ok {
				bs = append(bs, b)
			}
		}
		if len(bs) > 0 {
			out = append(out, fmt.Sprintf("case %s (%s) on %s", c.ID, c.Test, strings.Join(bs, ", ")))
		}
	}
	if res == nil {
		out = append(out, "TestProofShapes (lockvet's findings and fixes)")
	}
	return out
}

// recorded is a copy of the outcomes this run recorded.
func recorded() map[string]map[string]outcome {
	results.Lock()
	defer results.Unlock()
	rec := map[string]map[string]outcome{}
	for id, per := range results.m {
		rec[id] = maps.Clone(per)
	}
	return rec
}

const versionsPrefix = "Last written from a run against "

// checkDoc writes docs/proof.md under -update, and otherwise checks that
// it is up to date, from the outcomes rec and the shapes res of a run
// that covered every case on every backend (the full suite with
// redis-server and memcached installed). A run that did not is an error
// under -update (nothing is written) and when required
// (LOCKVET_REQUIRE_REDIS=1, as in CI, where both servers are installed,
// so a case that did not record is a test that stopped recording or a
// backend that never ran), naming what did not record; otherwise, a
// local run without the servers, the document is not checked.
func checkDoc(rec map[string]map[string]outcome, res map[string]*shapePkg, update, required bool) error {
	if missing := unrecorded(rec, res); len(missing) > 0 {
		switch {
		case update:
			return fmt.Errorf("-update needs every case on every backend (install redis-server and memcached, and run the whole package); docs/proof.md not written")
		case required:
			return fmt.Errorf("docs/proof.md could not be checked: this run did not record %s; with LOCKVET_REQUIRE_REDIS=1 (CI, where both servers are installed) every case must record on every backend, so run the whole package, with no -run or -skip", strings.Join(missing, "; "))
		}
		return nil
	}
	doc := renderDoc(rec, res)
	if update {
		return os.WriteFile(docFile, doc, 0o644)
	}
	old, err := os.ReadFile(docFile)
	if err != nil {
		return fmt.Errorf("%v; go test ./proof -update writes it", err)
	}
	if !bytes.Equal(withoutVersions(old), withoutVersions(doc)) {
		return fmt.Errorf("docs/proof.md is not what this run found; go test ./proof -update rewrites it")
	}
	return nil
}

func withoutVersions(doc []byte) []byte {
	var out []string
	for _, l := range strings.Split(string(doc), "\n") {
		if !strings.HasPrefix(l, versionsPrefix) {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\n"))
}

func renderDoc(rec map[string]map[string]outcome, res map[string]*shapePkg) []byte {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Proof: lockvet's findings and fixes against real servers\n\n")
	p("Generated by `go test ./proof -update` from an actual run; `go test ./proof` fails when this file no longer matches what a full run finds. Do not edit.\n\n")
	p("Each check's claim (this code is wrong) and each fix's claim (this code is right) is demonstrated, not argued: the buggy code shape lockvet reports and the exact code its fix produces run against a real `redis-server` (and `memcached`) and against the embedded `miniredis`, and the test asserts that the buggy shape fails and the fixed shape holds.\n\n")
	p("How the fixed code is obtained: the buggy shapes live in [`proof/internal/buggy`](../proof/internal/buggy), one package per check (and per client). `TestProofShapes` runs lockvet's analyzers on them in process (go/packages and the x/tools checker, the same registry the CLI uses), asserts the exact set of findings, applies the suggested fixes the way `lockvet -fix` does until nothing is left to fix, and requires the result to be byte for byte the packages in [`proof/internal/fixed`](../proof/internal/fixed). Those fixed packages are compiled into the test binary and are what the scenarios run: the Lua scripts in them are the ones lockvet inserts, from `internal/lua`.\n\n")
	p("The redigo, rueidis and gomemcache clients are proven twice. Rows 7c–7e run the rewrite-table templates in [`proof/internal/clients`](../proof/internal/clients), which take their Lua from `internal/lua`. Rows 6c and 7f–7h run lockvet's own fixes for those clients: their buggy shapes are in [`proof/internal/adapters/buggy`](../proof/internal/adapters/buggy) and lockvet's fixes of them, checked byte for byte like the others, in [`proof/internal/adapters/fixed`](../proof/internal/adapters/fixed). Where lockvet reports an operation without a fix (it cannot rewrite it exactly), that row runs the template's operation instead and says so.\n\n")
	p("Running it: `go test ./proof` (real-server variants skip with a message when `redis-server`/`memcached` are not installed; `LOCKVET_REQUIRE_REDIS=1`, set by CI, turns that into a failure).\n\n")
	p("%s%s.\n\n", versionsPrefix, versions())

	p("## Scenarios\n\n")
	p("| # | scenario | check | buggy shape | what the buggy code did | what lockvet's fixed code did | backends |\n")
	p("|---|---|---|---|---|---|---|\n")
	for _, c := range cases {
		per := rec[c.ID]
		check := "—"
		if c.Check != "" {
			check = fmt.Sprintf("[%s](checks.md#%s)", c.Check, strings.ToLower(c.Check))
		}
		shape := c.Shape
		if sp := res[shape]; sp != nil {
			shape = fmt.Sprintf("[%s](../proof/%s/buggy/%s) → [fixed](../proof/%s/fixed/%s)", shape, sp.Tree, shape, sp.Tree, shape)
		} else {
			shape = fmt.Sprintf("[%s](../proof/%s)", filepath.Base(shape), shape)
		}
		shape += " `" + c.Code + "`"
		buggy, fixed := cell(c, per, func(o outcome) string { return o.buggy }), cell(c, per, func(o outcome) string { return o.fixed })
		var bs []string
		for _, be := range c.Backends {
			bs = append(bs, be+" ✓")
		}
		p("| %s | %s | %s | %s | %s | %s | %s |\n", c.ID, c.Title, check, shape, buggy, fixed, strings.Join(bs, "<br>"))
	}

	p("\n## What lockvet reports and rewrites\n\n")
	p("For each shape package: the findings on the buggy code (`TestProofShapes` asserts exactly these) and the change its fixes make.\n")
	for _, name := range slices.Sorted(maps.Keys(res)) {
		sp := res[name]
		p("\n### %s\n\n", name)
		for _, f := range sp.Findings {
			fix := "fix offered"
			if !f.Fix {
				fix = "no automatic fix"
			}
			title := ""
			if r := analyzer.Lookup(f.Rule); r != nil {
				title = ": " + r.Title
			}
			p("- **%s**%s — `%s:%d` in `%s` (%s): %s\n", f.Rule, title, f.File, f.Line, f.Func, fix, f.Message)
		}
		for _, file := range slices.Sorted(maps.Keys(sp.Fixed)) {
			d := lineDiff(string(sp.Buggy[file]), string(sp.Fixed[file]))
			if d == "" {
				continue
			}
			p("\n`%s`:\n\n```diff\n%s```\n", file, d)
		}
	}
	return b.Bytes()
}

// cell renders one outcome column: the text, or one line per backend
// when the backends differ.
func cell(c proofCase, per map[string]outcome, get func(outcome) string) string {
	texts := map[string][]string{}
	var order []string
	for _, be := range c.Backends {
		s := get(per[be])
		if texts[s] == nil {
			order = append(order, s)
		}
		texts[s] = append(texts[s], be)
	}
	if len(order) == 1 {
		return esc(order[0])
	}
	var lines []string
	for _, s := range order {
		lines = append(lines, strings.Join(texts[s], ", ")+": "+esc(s))
	}
	return strings.Join(lines, "<br>")
}

func esc(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func versions() string {
	var vs []string
	if v := serverVersion("redis-server", "--version"); v != "" {
		vs = append(vs, v)
	}
	if v := serverVersion("memcached", "-V"); v != "" {
		vs = append(vs, v)
	}
	vs = append(vs, "miniredis "+moduleVersion("github.com/alicebob/miniredis/v2"))
	return strings.Join(vs, ", ")
}

// lineDiff is a minimal unified-style diff (no hunk headers) of a and b
// with one line of context, by longest common subsequence.
func lineDiff(a, b string) string {
	if a == b {
		return ""
	}
	x, y := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ls []line
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ls = append(ls, line{' ', x[i]})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ls = append(ls, line{'-', x[i]})
			i++
		default:
			ls = append(ls, line{'+', y[j]})
			j++
		}
	}
	var out strings.Builder
	shown := -1
	for k, l := range ls {
		near := false
		for d := -1; d <= 1; d++ {
			if k+d >= 0 && k+d < len(ls) && ls[k+d].op != ' ' {
				near = true
			}
		}
		if !near {
			continue
		}
		if shown >= 0 && k > shown+1 {
			out.WriteString("@@\n")
		}
		t := l.text
		if !strings.HasSuffix(t, "\n") {
			t += "\n"
		}
		out.WriteByte(l.op)
		out.WriteString(t)
		shown = k
	}
	return out.String()
}

// moduleVersion is the version of a module the root go.mod requires.
func moduleVersion(path string) string {
	gomod, err := os.ReadFile("../go.mod")
	if err == nil {
		for _, l := range strings.Split(string(gomod), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == path {
				return f[1]
			}
		}
	}
	return "(unknown version)"
}

// TestCheckDocIncomplete feeds checkDoc runs that did not record
// everything: under LOCKVET_REQUIRE_REDIS=1 each must fail, naming what
// did not record, so that a case that stops recording cannot switch the
// document's check off in CI; a local run without the switch leaves the
// document unchecked, and -update keeps its own message.
func TestCheckDocIncomplete(t *testing.T) {
	full := func() map[string]map[string]outcome {
		rec := map[string]map[string]outcome{}
		for _, c := range cases {
			rec[c.ID] = map[string]outcome{}
			for _, b := range c.Backends {
				rec[c.ID][b] = outcome{"buggy", "fixed"}
			}
		}
		return rec
	}
	shapesRan := map[string]*shapePkg{}
	noMini := full()
	delete(noMini["3a"], miniRedis)
	noCase := full()
	delete(noCase, "7e")
	for _, tc := range []struct {
		name string
		rec  map[string]map[string]outcome
		res  map[string]*shapePkg
		want []string // in the error under the switch
	}{
		{"one backend of a case", noMini, shapesRan, []string{"case 3a (TestProofUnsafeUnlock) on miniredis"}},
		{"a case on no backend", noCase, shapesRan, []string{"case 7e (TestProofClients) on memcached"}},
		{"no shapes", full(), nil, []string{"TestProofShapes"}},
		{"nothing", map[string]map[string]outcome{}, nil, []string{"case 1 (TestProofSetNXExpire) on redis-server, miniredis", "case 8b", "TestProofShapes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkDoc(tc.rec, tc.res, false, true)
			if err == nil {
				t.Fatal("LOCKVET_REQUIRE_REDIS=1: an incomplete run passed, leaving docs/proof.md unchecked")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("LOCKVET_REQUIRE_REDIS=1: the error does not name %q:\n%v", w, err)
				}
			}
			if err := checkDoc(tc.rec, tc.res, false, false); err != nil {
				t.Errorf("without LOCKVET_REQUIRE_REDIS: %v, want the document left unchecked", err)
			}
			for _, required := range []bool{false, true} {
				err := checkDoc(tc.rec, tc.res, true, required)
				if err == nil || !strings.HasPrefix(err.Error(), "-update needs every case on every backend") {
					t.Errorf("-update (LOCKVET_REQUIRE_REDIS=1: %v): %v, want -update's message", required, err)
				}
			}
		})
	}
}
