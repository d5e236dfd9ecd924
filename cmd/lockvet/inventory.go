package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/passes/inventory"
	"github.com/lockvet/lockvet/passes/redisops"
)

// subcommands are the commands selected by the first argument.
var subcommands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"inventory": inventoryMain,
	"live":      liveMain,
	"release":   releaseMain,
}

const inventoryUsage = `usage: lockvet inventory [flags] [packages]

Lists every lock site in the code: key pattern (a Redis glob), client,
acquire form, TTL, release form (owner-checked script, DELEX, bare DEL or
none), renewal (owner-checked, bare or none), the checks' findings on it,
and its position. The packages are go command patterns (default ./...).
Test files are left out unless -test is given. Exit status: 0, or 2 on
errors (packages that do not load are named on stderr; the others are
still listed).

The JSON schema is in docs/inventory.md.

Flags:
`

// inventoryOptions are the flags inventory and live share.
type inventoryOptions struct {
	dir          string
	tests        bool
	redisVersion string
}

func (o *inventoryOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.dir, "C", "", "run as if started in `dir`")
	fs.BoolVar(&o.tests, "test", false, "also list locks taken in test files")
	fs.StringVar(&o.redisVersion, "redis-version", "", "oldest Redis server the code runs against (`version`, e.g. 8.4), as for the checks")
}

func inventoryMain(args []string, stdout, stderr io.Writer) int {
	var o inventoryOptions
	format := "text"
	fs := flag.NewFlagSet("lockvet inventory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, inventoryUsage)
		fs.PrintDefaults()
	}
	fs.StringVar(&format, "format", "text", "output `format`: text, json or markdown")
	o.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitClean
		}
		return exitError
	}
	switch format {
	case "text", "json", "markdown":
	default:
		fmt.Fprintf(stderr, "lockvet inventory: unknown -format %q (text, json or markdown)\n", format)
		return exitError
	}
	inv, status := loadInventory(o, fs.Args(), stderr)
	if inv == nil {
		return status
	}
	var err error
	switch format {
	case "json":
		err = printInventoryJSON(stdout, inv)
	case "markdown":
		printInventoryMarkdown(stdout, inv)
	default:
		printInventoryText(stdout, inv)
	}
	if err != nil {
		fmt.Fprintf(stderr, "lockvet inventory: %v\n", err)
		return exitError
	}
	return status
}

// inventoryRun is a loaded inventory.
type inventoryRun struct {
	dir   string // absolute
	sites []*inventory.Site
}

// rel is filename relative to the run's directory when below it.
func (r *inventoryRun) rel(filename string) string {
	if rel, err := filepath.Rel(r.dir, filename); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return filename
}

func (r *inventoryRun) pos(p token.Position) string {
	if !p.IsValid() {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", r.rel(p.Filename), p.Line, p.Column)
}

// loadInventory loads the packages, runs every check and the inventory on
// them, and links the sites. It returns nil when nothing could be
// analyzed; the status is exitError when some packages failed.
func loadInventory(o inventoryOptions, patterns []string, stderr io.Writer) (*inventoryRun, int) {
	fail := func(format string, args ...any) (*inventoryRun, int) {
		fmt.Fprintf(stderr, "lockvet: "+format+"\n", args...)
		return nil, exitError
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	dir, err := filepath.Abs(cmp.Or(o.dir, "."))
	if err != nil {
		return fail("%v", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fail("-C %s: not a directory", o.dir)
	}
	checks, err := analyzer.Analyzers(&analyzer.Config{RedisVersion: o.redisVersion})
	if err != nil {
		return fail("%v", err)
	}
	inv := inventory.New(opsAnalyzer(checks))
	all := append(slices.Clone(checks), inv)
	guard(all)

	lock, err := analyzer.LockPackages(&analyzer.Config{RedisVersion: o.redisVersion})
	if err != nil {
		return fail("%v", err)
	}
	l, err := load(dir, patterns, o.tests, lock)
	if err != nil {
		return fail("%v", err)
	}
	if len(l.all) == 0 {
		return fail("%s matched no packages", strings.Join(patterns, " "))
	}
	pkgs := l.roots
	status := exitClean
	printed := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if line := cmp.Or(p.PkgPath, p.ID) + ": " + errorText(dir, e); !printed[line] {
				printed[line] = true
				fmt.Fprintf(stderr, "lockvet: %s\n", line)
				status = exitError
				break
			}
		}
	})
	graph, err := checker.Analyze(all, l.linked, nil)
	if err != nil {
		return fail("%v", err)
	}
	var results []*inventory.Result
	type found struct {
		rule, msg string
		pos       token.Position
	}
	var findings []found
	seen := map[found]bool{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			if !act.Package.IllTyped {
				fmt.Fprintf(stderr, "lockvet: %s on %s: %v\n", act.Analyzer.Name, act.Package.PkgPath, act.Err)
				status = exitError
			}
			continue
		}
		if act.Analyzer == inv {
			results = append(results, act.Result.(*inventory.Result))
			continue
		}
		for _, d := range act.Diagnostics {
			f := found{cmp.Or(d.Category, act.Analyzer.Name), d.Message, act.Package.Fset.Position(d.Pos)}
			if !seen[f] {
				seen[f] = true
				findings = append(findings, f)
			}
		}
	}
	sites := inventory.Link(results)
	if !o.tests {
		sites = slices.DeleteFunc(sites, func(s *inventory.Site) bool { return s.Test })
	}
	for _, s := range sites {
		for _, f := range findings {
			if slices.ContainsFunc(s.Spans(), func(sp inventory.Span) bool { return sp.Contains(f.pos) }) {
				s.Findings = append(s.Findings, inventory.Finding{Rule: f.rule, Message: f.msg, Pos: f.pos})
			}
		}
		slices.SortFunc(s.Findings, func(a, b inventory.Finding) int {
			return cmp.Or(cmp.Compare(a.Pos.Filename, b.Pos.Filename), cmp.Compare(a.Pos.Offset, b.Pos.Offset), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
		})
	}
	return &inventoryRun{dir: dir, sites: sites}, status
}

// opsAnalyzer finds the redisops analyzer the checks require, so that the
// inventory reads the same operations; a fresh one when there is none.
func opsAnalyzer(checks []*analysis.Analyzer) *analysis.Analyzer {
	for _, c := range checks {
		for _, r := range c.Requires {
			if r.Name == "redisops" {
				return r
			}
		}
	}
	return redisops.New(nil)
}

// --- output ---

// siteJSON is one site in the JSON output (schema: docs/inventory.md).
type siteJSON struct {
	Position      string        `json:"position"`
	File          string        `json:"file"`
	Line          int           `json:"line"`
	Column        int           `json:"column"`
	Package       string        `json:"package"`
	Function      string        `json:"function"`
	Key           string        `json:"key"`
	Patterns      []string      `json:"patterns"`
	PatternSource string        `json:"pattern_source"`
	Client        string        `json:"client"`
	Acquire       string        `json:"acquire"`
	Scope         string        `json:"scope"`
	TTL           ttlJSON       `json:"ttl"`
	Release       string        `json:"release"`
	Releases      []actionJSON  `json:"releases"`
	Renewal       string        `json:"renewal"`
	Renewals      []actionJSON  `json:"renewals"`
	Findings      []findingJSON `json:"findings"`
	Test          bool          `json:"test"`
	Generated     bool          `json:"generated"`
}

type ttlJSON struct {
	Expr     string      `json:"expr"`
	Value    string      `json:"value"`
	Millis   int64       `json:"ms"`
	None     bool        `json:"none"`
	Separate *actionJSON `json:"separate"`
}

type actionJSON struct {
	Form     string `json:"form,omitempty"`
	Command  string `json:"command"`
	Position string `json:"position"`
	TTL      string `json:"ttl,omitempty"`
	Via      string `json:"via,omitempty"`
	Call     string `json:"call,omitempty"`
}

type findingJSON struct {
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	Position string `json:"position"`
}

func (r *inventoryRun) json() []siteJSON {
	out := []siteJSON{}
	actions := func(as []inventory.Action) []actionJSON {
		js := []actionJSON{}
		for _, a := range as {
			js = append(js, r.action(a))
		}
		return js
	}
	for _, s := range r.sites {
		j := siteJSON{
			Position: r.pos(s.Pos), File: r.rel(s.Pos.Filename), Line: s.Pos.Line, Column: s.Pos.Column,
			Package: s.Package, Function: s.Func, Key: s.Key,
			Patterns: append([]string{}, s.Patterns...), PatternSource: s.Source,
			Client: s.Client, Acquire: s.Acquire, Scope: s.Scope,
			TTL:     ttlJSON{Expr: s.TTL.Expr, Value: s.TTL.Value, Millis: s.TTL.Millis, None: s.TTL.None},
			Release: s.Release(), Releases: actions(s.Releases),
			Renewal: s.Renewal(), Renewals: actions(s.Renewals),
			Findings: []findingJSON{}, Test: s.Test, Generated: s.Generated,
		}
		if s.TTL.Separate != nil {
			a := r.action(*s.TTL.Separate)
			j.TTL.Separate = &a
		}
		for _, f := range s.Findings {
			j.Findings = append(j.Findings, findingJSON{f.Rule, f.Message, r.pos(f.Pos)})
		}
		out = append(out, j)
	}
	return out
}

func (r *inventoryRun) action(a inventory.Action) actionJSON {
	return actionJSON{Form: a.Form, Command: a.Command, Position: r.pos(a.Pos), TTL: a.TTL, Via: a.Via, Call: r.pos(a.At)}
}

// inventoryVersion is the version of the JSON schema.
const inventoryVersion = 1

func printInventoryJSON(w io.Writer, r *inventoryRun) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Version int        `json:"version"`
		Sites   []siteJSON `json:"sites"`
	}{inventoryVersion, r.json()})
}

// ttlText describes a site's TTL in one line.
func (r *inventoryRun) ttlText(s *inventory.Site) string {
	t := s.TTL
	switch {
	case t.None:
		return "none: the lock never expires"
	case t.Expr == "":
		return "unknown"
	}
	text := t.Expr
	if t.Value != "" && t.Value != t.Expr {
		text += " (" + t.Value + ")"
	}
	if t.Separate != nil {
		text += fmt.Sprintf(", set by a separate %s at %s: none until then", t.Separate.Command, r.pos(t.Separate.Pos))
	}
	return text
}

func (r *inventoryRun) actionText(a inventory.Action) string {
	text := a.Command + " at " + r.pos(a.Pos)
	if a.TTL != "" {
		text += ", TTL " + a.TTL
	}
	if a.Via != "" {
		text += ", via " + a.Via + " called at " + r.pos(a.At)
	}
	return text
}

func printInventoryText(w io.Writer, r *inventoryRun) {
	for i, s := range r.sites {
		if i > 0 {
			fmt.Fprintln(w)
		}
		pattern := strings.Join(s.Patterns, " ")
		if pattern == "" {
			pattern = "(key pattern unknown: " + s.Key + ")"
		}
		fmt.Fprintf(w, "%s: %s\n", r.pos(s.Pos), pattern)
		fmt.Fprintf(w, "\tacquire  %s (%s) in %s, key %s", s.Acquire, s.Client, s.Func, s.Key)
		if s.Scope != "direct" {
			fmt.Fprintf(w, ", in a %s", s.Scope)
		}
		if s.Generated {
			fmt.Fprint(w, ", generated file")
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "\tttl      %s\n", r.ttlText(s))
		fmt.Fprintf(w, "\trelease  %s\n", s.Release())
		for _, a := range s.Releases {
			fmt.Fprintf(w, "\t         %s: %s\n", a.Form, r.actionText(a))
		}
		fmt.Fprintf(w, "\trenewal  %s\n", s.Renewal())
		for _, a := range s.Renewals {
			fmt.Fprintf(w, "\t         %s: %s\n", a.Form, r.actionText(a))
		}
		for _, f := range s.Findings {
			fmt.Fprintf(w, "\tfinding  %s: %s: %s\n", r.pos(f.Pos), f.Rule, f.Message)
		}
	}
}

func printInventoryMarkdown(w io.Writer, r *inventoryRun) {
	code := func(s string) string {
		if s == "" {
			return ""
		}
		s = strings.ReplaceAll(s, "|", `\|`)
		if strings.Contains(s, "`") {
			return "``" + s + "``"
		}
		return "`" + s + "`"
	}
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	fmt.Fprintln(w, "| Key pattern | Client | Acquire | TTL | Release | Renewal | Findings | Location |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, s := range r.sites {
		var pats []string
		for _, p := range s.Patterns {
			pats = append(pats, code(p))
		}
		pattern := strings.Join(pats, "<br>")
		if pattern == "" {
			pattern = "unknown (key " + code(s.Key) + ")"
		}
		ttl := "none"
		switch {
		case s.TTL.None:
		case s.TTL.Expr == "":
			ttl = "unknown"
		default:
			ttl = code(s.TTL.Expr)
			if s.TTL.Value != "" && s.TTL.Value != s.TTL.Expr {
				ttl += " (" + cell(s.TTL.Value) + ")"
			}
			if s.TTL.Separate != nil {
				ttl += " by a separate " + s.TTL.Separate.Command
			}
		}
		var fs []string
		for _, f := range s.Findings {
			fs = append(fs, f.Rule)
		}
		slices.Sort(fs)
		fs = slices.Compact(fs)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
			pattern, cell(s.Client), code(s.Acquire), ttl, cell(s.Release()), cell(s.Renewal()), strings.Join(fs, ", "), code(r.pos(s.Pos)))
	}
}
