// Package report is how every lockvet check reports: it stamps the rule's
// ID and documentation URL on the diagnostic, drops findings in files the
// configuration excludes (generated code, by default), and honours
// in-source suppressions:
//
//	//lockvet:ignore LV201 -- the key is per-request, nobody else can hold it
//	//lockvet:file-ignore LV104 -- test fixtures use tiny TTLs on purpose
//
// A line directive covers findings that start on its own line (trailing
// comment) or on the next line. The reason after "--" is required: a
// directive without one suppresses nothing and is itself reported, and so
// is a directive that matches no finding. Because this lives in the
// analyzers, it works the same under the lockvet CLI, go vet and
// golangci-lint.
package report

import (
	"cmp"
	"go/token"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/redisops"
)

// Suppressed is a finding an in-source directive suppressed, kept so that
// hosts that can show suppressions (SARIF) do.
type Suppressed struct {
	Diagnostic analysis.Diagnostic
	Reason     string
	Directive  token.Pos
}

// Result is what a check's Run returns: the findings it suppressed.
type Result struct {
	Suppressed []Suppressed
}

// EachSuppressed calls f for every suppressed finding, in report order.
// Code outside passes/ cannot name this package's types; it reaches the
// suppressed findings through this method (analyzer.Suppressions).
func (r *Result) EachSuppressed(f func(d analysis.Diagnostic, reason string, directive token.Pos)) {
	for _, s := range r.Suppressed {
		f(s.Diagnostic, s.Reason, s.Directive)
	}
}

// ResultType is the analyzer ResultType of every check.
var ResultType = reflect.TypeFor[*Result]()

// Reporter reports one rule's findings for one pass.
type Reporter struct {
	pass   *analysis.Pass
	rule   *rules.Rule
	cfg    *lvconfig.Config
	pkg    *pkgFiles
	result Result

	// The directives that name this rule, in source order, whether each
	// suppressed a finding, and where they apply (indices into dirs).
	parsed bool
	dirs   []*directive
	used   []bool
	byLine map[fileLine][]int
	wide   map[string][]int
}

type fileLine struct {
	file string
	line int
}

// Analyzer is the analyzer of a check: rule's name, doc and URL, the
// redisops analyzer ops as its one requirement, and run reporting through a
// Reporter whose Done result (the suppressed findings) the analyzer returns.
func Analyzer(rule *rules.Rule, ops *analysis.Analyzer, cfg *lvconfig.Config, run func(*analysis.Pass, *redisops.Result, *Reporter)) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       rule.Name,
		Doc:        rule.Doc(),
		URL:        rule.URL(),
		Requires:   []*analysis.Analyzer{ops},
		ResultType: ResultType,
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[ops].(*redisops.Result)
			r := New(pass, rule, cfg, res)
			run(pass, res, r)
			return r.Done(), nil
		},
	}
}

// New returns a Reporter for rule in pass, which reads ops (the package's
// redisops result, where what every check needs of the package's files is
// computed once). Call Done when the check ends.
func New(pass *analysis.Pass, rule *rules.Rule, cfg *lvconfig.Config, ops *redisops.Result) *Reporter {
	return &Reporter{pass: pass, rule: rule, cfg: cfg, pkg: filesOf(pass, ops)}
}

// Report reports d unless its file is excluded or a directive suppresses it.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if r.excluded(d) {
		return
	}
	d.Category = r.rule.ID
	if d.URL == "" {
		d.URL = r.rule.URL()
	}
	for i := range d.SuggestedFixes {
		fix := &d.SuggestedFixes[i]
		r.pkg.pruneImports(r.pass, fix)
		// Edits are built in whatever order a check found them, which for a
		// fix spanning files can follow map iteration; sort them by position
		// (stable, so insertions at one position keep their order) so that
		// two runs print the same fix.
		slices.SortStableFunc(fix.TextEdits, func(a, b analysis.TextEdit) int { return cmp.Compare(a.Pos, b.Pos) })
	}
	if i := r.suppressing(d.Pos); i >= 0 {
		r.used[i] = true
		dir := r.dirs[i]
		r.result.Suppressed = append(r.result.Suppressed, Suppressed{Diagnostic: d, Reason: dir.reason, Directive: dir.pos})
		return
	}
	r.pass.Report(d)
}

// Done reports directives for this rule that matched nothing and returns
// the check's result.
func (r *Reporter) Done() *Result {
	r.parse()
	for i, dir := range r.dirs {
		if !r.used[i] && dir.reason != "" {
			r.pass.Report(analysis.Diagnostic{
				Pos:      dir.pos,
				Category: r.rule.ID,
				URL:      r.rule.URL(),
				Message:  "this lockvet:ignore directive for " + r.rule.ID + " matches no finding; remove it",
			})
		}
	}
	return &r.result
}

// suppressing returns the index of the first directive (in source order)
// that suppresses a finding at pos, or -1.
func (r *Reporter) suppressing(pos token.Pos) int {
	r.parse()
	if len(r.dirs) == 0 {
		return -1
	}
	p := r.pass.Fset.Position(pos)
	best := -1
	for _, list := range [2][]int{r.byLine[fileLine{p.Filename, p.Line}], r.wide[p.Filename]} {
		if len(list) > 0 && (best < 0 || list[0] < best) {
			best = list[0]
		}
	}
	return best
}

// parse selects the package's directives that name this rule, reporting
// those without a reason.
func (r *Reporter) parse() {
	if r.parsed {
		return
	}
	r.parsed = true
	for _, dir := range r.pkg.directives {
		if !r.names(dir.ids) {
			continue
		}
		if dir.reason == "" && !r.excluded(analysis.Diagnostic{Pos: dir.pos}) {
			r.pass.Report(analysis.Diagnostic{
				Pos:      dir.pos,
				End:      dir.end,
				Category: r.rule.ID,
				URL:      r.rule.URL(),
				Message:  "lockvet:ignore needs a reason after \"--\" (//lockvet:ignore " + r.rule.ID + " -- why this is safe); it suppresses nothing without one",
			})
		}
		i := len(r.dirs)
		r.dirs = append(r.dirs, dir)
		r.used = append(r.used, false)
		if dir.reason == "" {
			continue // suppresses nothing
		}
		if dir.fileWide {
			if r.wide == nil {
				r.wide = map[string][]int{}
			}
			r.wide[dir.file] = append(r.wide[dir.file], i)
			continue
		}
		if r.byLine == nil {
			r.byLine = map[fileLine][]int{}
		}
		// A directive covers its own line and the next.
		for _, l := range []int{dir.line, dir.line + 1} {
			k := fileLine{dir.file, l}
			r.byLine[k] = append(r.byLine[k], i)
		}
	}
}

func cutDirective(text string) (rest string, fileWide, ok bool) {
	if rest, ok := strings.CutPrefix(text, "//lockvet:ignore"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
		return rest, false, true
	}
	if rest, ok := strings.CutPrefix(text, "//lockvet:file-ignore"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
		return rest, true, true
	}
	return "", false, false
}

// names reports whether a directive's ID list names this rule (by ID or
// analyzer name; comma- or space-separated).
func (r *Reporter) names(ids string) bool {
	for _, id := range strings.FieldsFunc(ids, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' }) {
		if strings.EqualFold(id, r.rule.ID) || id == r.rule.Name {
			return true
		}
	}
	return false
}

func (r *Reporter) excluded(d analysis.Diagnostic) bool {
	if r.cfg != nil && r.cfg.IncludeGenerated {
		return false
	}
	f := r.pkg.file(d.Pos)
	return f >= 0 && r.pkg.generated[f]
}
