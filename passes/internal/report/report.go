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
	"go/ast"
	"go/token"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/internal/lvconfig"
	"github.com/lockvet/lockvet/internal/rules"
	"github.com/lockvet/lockvet/passes/internal/fixes"
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
	pass       *analysis.Pass
	rule       *rules.Rule
	cfg        *lvconfig.Config
	generated  map[*ast.File]bool
	directives []*directive
	parsed     bool
	result     Result
}

type directive struct {
	pos      token.Pos
	file     string
	line     int
	fileWide bool
	reason   string
	used     bool
}

// New returns a Reporter for rule in pass. Call Done when the check ends.
func New(pass *analysis.Pass, rule *rules.Rule, cfg *lvconfig.Config) *Reporter {
	return &Reporter{pass: pass, rule: rule, cfg: cfg}
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
		fixes.PruneImports(r.pass, &d.SuggestedFixes[i])
	}
	if dir := r.suppressing(d.Pos); dir != nil {
		dir.used = true
		r.result.Suppressed = append(r.result.Suppressed, Suppressed{Diagnostic: d, Reason: dir.reason, Directive: dir.pos})
		return
	}
	r.pass.Report(d)
}

// Done reports directives for this rule that matched nothing and returns
// the check's result.
func (r *Reporter) Done() *Result {
	r.parse()
	for _, dir := range r.directives {
		if !dir.used && dir.reason != "" {
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

func (r *Reporter) suppressing(pos token.Pos) *directive {
	r.parse()
	if len(r.directives) == 0 {
		return nil
	}
	p := r.pass.Fset.Position(pos)
	for _, dir := range r.directives {
		if dir.reason == "" || dir.file != p.Filename {
			continue
		}
		if dir.fileWide || p.Line == dir.line || p.Line == dir.line+1 {
			return dir
		}
	}
	return nil
}

// parse collects the directives that name this rule, reporting those
// without a reason.
func (r *Reporter) parse() {
	if r.parsed {
		return
	}
	r.parsed = true
	for _, f := range r.pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text, fileWide, ok := cutDirective(c.Text)
				if !ok {
					continue
				}
				ids, reason, _ := strings.Cut(text, "--")
				if !r.names(ids) {
					continue
				}
				p := r.pass.Fset.Position(c.Slash)
				dir := &directive{pos: c.Slash, file: p.Filename, line: p.Line, fileWide: fileWide, reason: strings.TrimSpace(reason)}
				if dir.reason == "" && !r.excluded(analysis.Diagnostic{Pos: c.Slash}) {
					r.pass.Report(analysis.Diagnostic{
						Pos:      c.Slash,
						End:      c.End(),
						Category: r.rule.ID,
						URL:      r.rule.URL(),
						Message:  "lockvet:ignore needs a reason after \"--\" (//lockvet:ignore " + r.rule.ID + " -- why this is safe); it suppresses nothing without one",
					})
				}
				r.directives = append(r.directives, dir)
			}
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
	if r.generated == nil {
		r.generated = map[*ast.File]bool{}
		for _, f := range r.pass.Files {
			r.generated[f] = ast.IsGenerated(f) && !cgoOutput(f)
		}
	}
	for f, gen := range r.generated {
		if gen && f.FileStart <= d.Pos && d.Pos <= f.FileEnd {
			return true
		}
	}
	return false
}

// cgoOutput reports whether f is the go command's cgo translation of a
// user's file. It says it is generated, but its code is the user's (line
// directives map it back to the user's file), so its findings are kept.
func cgoOutput(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if c.Text == "// Code generated by cmd/cgo; DO NOT EDIT." {
				return true
			}
		}
	}
	return false
}
