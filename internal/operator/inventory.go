// Package operator holds lockvet's commands for the people who run the
// services it analyses, apart from the analyzers: lockvet inventory here,
// which lists every lock site of the code (key pattern, client, TTL,
// release and renewal form, findings) and needs no server; and, in
// operator/live, the commands that talk to a running Redis: the read-only
// scan for stuck locks, its Prometheus exporter, and the audited release.
// Those link a Redis client and the Prometheus client library, so they
// are a binary of their own, lockvet-live, which lockvet live and
// lockvet release run: go vet starts the lockvet binary once per package
// and pays for every package it links (internal/operator/live says how
// much).
package operator

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

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/lockvet/lockvet/analyzer"
	"github.com/lockvet/lockvet/internal/driver"
	"github.com/lockvet/lockvet/passes/inventory"
)

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

// Options are the flags inventory and live share.
type Options struct {
	Dir          string
	Tests        bool
	RedisVersion string
}

// Register declares the flags on fs.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Dir, "C", "", "run as if started in `dir`")
	fs.BoolVar(&o.Tests, "test", false, "also list locks taken in test files")
	fs.StringVar(&o.RedisVersion, "redis-version", "", "oldest Redis server the code runs against (`version`, e.g. 8.4), as for the checks")
}

// Inventory is lockvet inventory: it lists the lock sites of the packages
// args name and returns the exit status.
func Inventory(args []string, stdout, stderr io.Writer) int {
	var o Options
	format := "text"
	fs := flag.NewFlagSet("lockvet inventory", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, inventoryUsage)
		fs.PrintDefaults()
	}
	fs.StringVar(&format, "format", "text", "output `format`: text, json or markdown")
	o.Register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return driver.ExitClean
		}
		return driver.ExitError
	}
	switch format {
	case "text", "json", "markdown":
	default:
		fmt.Fprintf(stderr, "lockvet inventory: unknown -format %q (text, json or markdown)\n", format)
		return driver.ExitError
	}
	inv, status := Load(o, fs.Args(), stderr)
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
		return driver.ExitError
	}
	return status
}

// Run is a loaded inventory.
type Run struct {
	Dir   string // absolute
	Sites []*inventory.Site
}

// Rel is filename relative to the run's directory when below it,
// slash-separated.
func (r *Run) Rel(filename string) string {
	if rel, err := filepath.Rel(r.Dir, filename); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return filename
}

// Pos is p as file:line:col, the file relative to the run's directory.
func (r *Run) Pos(p token.Position) string {
	if !p.IsValid() {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", r.Rel(p.Filename), p.Line, p.Column)
}

// Load loads the packages, runs every check and the inventory on
// them, and links the sites. It returns nil when nothing could be
// analyzed; the status is driver.ExitError when some packages failed.
func Load(o Options, patterns []string, stderr io.Writer) (*Run, int) {
	fail := func(format string, args ...any) (*Run, int) {
		fmt.Fprintf(stderr, "lockvet: "+format+"\n", args...)
		return nil, driver.ExitError
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	dir, err := filepath.Abs(cmp.Or(o.Dir, "."))
	if err != nil {
		return fail("%v", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fail("-C %s: not a directory", o.Dir)
	}
	checks, inv, err := analyzer.Inventory(&analyzer.Config{RedisVersion: o.RedisVersion})
	if err != nil {
		return fail("%v", err)
	}
	all := append(slices.Clone(checks), inv)
	driver.Guard(all)

	lock, err := analyzer.LockPackages(&analyzer.Config{RedisVersion: o.RedisVersion})
	if err != nil {
		return fail("%v", err)
	}
	l, err := driver.Load(dir, patterns, o.Tests, lock)
	if err != nil {
		return fail("%v", err)
	}
	if len(l.All) == 0 {
		return fail("%s matched no packages", strings.Join(patterns, " "))
	}
	pkgs := l.Roots
	status := driver.ExitClean
	printed := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if line := cmp.Or(p.PkgPath, p.ID) + ": " + driver.ErrorText(dir, e); !printed[line] {
				printed[line] = true
				fmt.Fprintf(stderr, "lockvet: %s\n", line)
				status = driver.ExitError
				break
			}
		}
	})
	graph, err := checker.Analyze(all, l.Linked, nil)
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
				status = driver.ExitError
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
	if !o.Tests {
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
	return &Run{Dir: dir, Sites: sites}, status
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

func (r *Run) json() []siteJSON {
	out := []siteJSON{}
	actions := func(as []inventory.Action) []actionJSON {
		js := []actionJSON{}
		for _, a := range as {
			js = append(js, r.action(a))
		}
		return js
	}
	for _, s := range r.Sites {
		j := siteJSON{
			Position: r.Pos(s.Pos), File: r.Rel(s.Pos.Filename), Line: s.Pos.Line, Column: s.Pos.Column,
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
			j.Findings = append(j.Findings, findingJSON{f.Rule, f.Message, r.Pos(f.Pos)})
		}
		out = append(out, j)
	}
	return out
}

func (r *Run) action(a inventory.Action) actionJSON {
	return actionJSON{Form: a.Form, Command: a.Command, Position: r.Pos(a.Pos), TTL: a.TTL, Via: a.Via, Call: r.Pos(a.At)}
}

// inventoryVersion is the version of the JSON schema.
const inventoryVersion = 1

func printInventoryJSON(w io.Writer, r *Run) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Version int        `json:"version"`
		Sites   []siteJSON `json:"sites"`
	}{inventoryVersion, r.json()})
}

// ttlText describes a site's TTL in one line.
func (r *Run) ttlText(s *inventory.Site) string {
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
		text += fmt.Sprintf(", set by a separate %s at %s: none until then", t.Separate.Command, r.Pos(t.Separate.Pos))
	}
	return text
}

func (r *Run) actionText(a inventory.Action) string {
	text := a.Command + " at " + r.Pos(a.Pos)
	if a.TTL != "" {
		text += ", TTL " + a.TTL
	}
	if a.Via != "" {
		text += ", via " + a.Via + " called at " + r.Pos(a.At)
	}
	return text
}

func printInventoryText(w io.Writer, r *Run) {
	for i, s := range r.Sites {
		if i > 0 {
			fmt.Fprintln(w)
		}
		pattern := strings.Join(s.Patterns, " ")
		if pattern == "" {
			pattern = "(key pattern unknown: " + s.Key + ")"
		}
		fmt.Fprintf(w, "%s: %s\n", r.Pos(s.Pos), pattern)
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
			fmt.Fprintf(w, "\tfinding  %s: %s: %s\n", r.Pos(f.Pos), f.Rule, f.Message)
		}
	}
}

func printInventoryMarkdown(w io.Writer, r *Run) {
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
	for _, s := range r.Sites {
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
			pattern, cell(s.Client), code(s.Acquire), ttl, cell(s.Release()), cell(s.Renewal()), strings.Join(fs, ", "), code(r.Pos(s.Pos)))
	}
}
