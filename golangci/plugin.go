// Package golangci registers lockvet as a golangci-lint v2 module plugin.
//
// Build a golangci-lint binary that contains it with `golangci-lint custom`
// and a .custom-gcl.yml importing this package (see .custom-gcl.example.yml
// at the repository root), then enable the linter in .golangci.yml:
//
//	version: "2"
//	linters:
//	  enable: [lockvet]
//	  settings:
//	    custom:
//	      lockvet:
//	        type: module
//	        settings:
//	          disable: [LV104]
//	          redis-version: "7.2"
//	          acquire-funcs:
//	            - "(*example.com/cache.Store).TryLock:key=1,value=2,ttl=3"
//
// The settings are those of the lockvet command's flags; see [Settings].
// Each plugin instance builds its own analyzers with [analyzer.Analyzers]:
// nothing global is read or changed, so differently configured instances
// can coexist in one process.
//
// golangci-lint reports every finding under the linter name "lockvet". It
// would turn each related position (the SETNX paired with a reported
// EXPIRE) into an issue of its own, prefix messages with the analyzer name
// rather than the check ID, and keep one issue per line (uniq-by-line), so
// the plugin hands golangci-lint one analyzer, named "lockvet" like the
// linter, that runs the checks and reports their findings itself: each
// message starts with its check ID, its related positions are folded into
// it ("...; lock acquired at cache/lock.go:9"), and findings on one line
// are merged into one issue that names them all. See [Merge].
package golangci

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/lockvet/lockvet/analyzer"
)

// Name is the name the plugin registers under. The key under
// linters.settings.custom in .golangci.yml must be exactly this.
const Name = "lockvet"

func init() {
	register.Plugin(Name, New)
}

// Settings is the settings block of linters.settings.custom.lockvet.
// Keys are the lockvet command's flag names; unknown keys are rejected.
type Settings struct {
	// Checks enables only these checks, by ID ("LV101") or analyzer name
	// ("setnxexpire"). Empty enables every check.
	Checks []string `json:"checks,omitempty"`
	// Disable turns these checks off, by ID or analyzer name.
	Disable []string `json:"disable,omitempty"`
	// RedisVersion is the oldest Redis server the code runs against
	// ("7.2", "8.4"); it selects which fixes are offered.
	RedisVersion string `json:"redis-version,omitempty"`
	// IncludeGenerated also reports findings in generated files. Note that
	// golangci-lint drops issues in generated files itself unless
	// linters.exclusions.generated is "disable".
	IncludeGenerated bool `json:"include-generated,omitempty"`
	// AcquireFuncs, ExpireFuncs, ReleaseFuncs and SafeReleaseFuncs declare
	// in-house functions that take a lock (SET NX), set its TTL (EXPIRE),
	// delete it (DEL) and delete it only while it holds a token
	// (compare-and-delete), one per item, as
	// "FUNC[:key=P,value=P,ttl=P|none,unit=duration|seconds|millis]":
	// FUNC is pkg/path.Func or (*pkg/path.Type).Method, P a parameter's
	// 0-based position (receiver not counted) or name. Their calls take
	// part in every check like the client calls they stand for.
	AcquireFuncs     []string `json:"acquire-funcs,omitempty"`
	ExpireFuncs      []string `json:"expire-funcs,omitempty"`
	ReleaseFuncs     []string `json:"release-funcs,omitempty"`
	SafeReleaseFuncs []string `json:"safe-release-funcs,omitempty"`
}

// New is the plugin constructor golangci-lint calls with the raw settings
// block of the configuration. It rejects unknown keys, values of the wrong
// type, unknown checks and malformed Redis versions.
func New(conf any) (register.LinterPlugin, error) {
	s, err := decode(conf)
	if err != nil {
		return nil, err
	}
	cfg := s.config()
	as, err := analyzer.Analyzers(cfg)
	if err != nil {
		return nil, fmt.Errorf("lockvet settings: %w", err)
	}
	if len(as) == 0 {
		return nil, errors.New(`lockvet settings: "checks" and "disable" leave no check enabled`)
	}
	return &plugin{cfg: cfg}, nil
}

type plugin struct {
	cfg *analyzer.Config // owned by the plugin; never modified
}

// BuildAnalyzers returns a fresh set of analyzers on each call.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	cfg := *p.cfg
	as, err := analyzer.Analyzers(&cfg)
	if err != nil {
		return nil, fmt.Errorf("lockvet settings: %w", err)
	}
	for i, a := range as {
		as[i] = collecting(firstFixOnly(a))
	}
	return []*analysis.Analyzer{{
		Name:     Name,
		Doc:      "lockvet: distributed-lock misuse on Redis; reports the findings of the checks it requires, one issue per line",
		URL:      "https://github.com/lockvet/lockvet",
		Requires: as,
		Run: func(pass *analysis.Pass) (any, error) {
			var all []analysis.Diagnostic
			for _, a := range as {
				all = append(all, pass.ResultOf[a].(*collected).diags...)
			}
			for _, d := range DropConflicts(pass.Fset, Merge(pass.Fset, all, moduleRel)) {
				pass.Report(d)
			}
			return nil, nil
		},
	}}, nil
}

// GetLoadMode asks golangci-lint for syntax and type information; lockvet
// uses no facts and no SSA.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

func (s Settings) config() *analyzer.Config {
	return &analyzer.Config{
		Checks:           slices.Clone(s.Checks),
		Disable:          slices.Clone(s.Disable),
		RedisVersion:     s.RedisVersion,
		IncludeGenerated: s.IncludeGenerated,
		AcquireFuncs:     slices.Clone(s.AcquireFuncs),
		ExpireFuncs:      slices.Clone(s.ExpireFuncs),
		ReleaseFuncs:     slices.Clone(s.ReleaseFuncs),
		SafeReleaseFuncs: slices.Clone(s.SafeReleaseFuncs),
	}
}

// firstFixOnly returns a copy of a whose diagnostics carry at most their
// first suggested fix. lockvet orders alternative fixes safest first and
// expects a batch driver to apply only the first one (as `go vet -fix` and
// the lockvet command do); golangci-lint's --fix applies every fix of an
// issue, and overlapping alternatives would make it skip all of lockvet's
// edits in the file.
func firstFixOnly(a *analysis.Analyzer) *analysis.Analyzer {
	return analyzer.Rewriting(a, func(d *analysis.Diagnostic) {
		if len(d.SuggestedFixes) > 1 {
			d.SuggestedFixes = d.SuggestedFixes[:1]
		}
	})
}

// decode turns golangci-lint's raw settings into Settings, with errors that
// name the offending key.
func decode(conf any) (Settings, error) {
	raw, err := register.DecodeSettings[map[string]any](conf)
	if err != nil {
		return Settings{}, fmt.Errorf("lockvet settings must be a mapping of setting names to values: %w", err)
	}
	valid := settingNames()
	var bad []string
	for k := range raw {
		if !slices.Contains(valid, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		var msgs []string
		for _, k := range bad {
			m := fmt.Sprintf("%q", k)
			if s := suggest(k, valid); s != "" {
				m += fmt.Sprintf(" (did you mean %q?)", s)
			}
			msgs = append(msgs, m)
		}
		word := "setting"
		if len(bad) > 1 {
			word = "settings"
		}
		return Settings{}, fmt.Errorf("unknown lockvet %s %s; valid settings are: %s",
			word, strings.Join(msgs, ", "), strings.Join(valid, ", "))
	}
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			msg := fmt.Sprintf("lockvet setting %q: got %s, want %s", te.Field, article(te.Value), describe(te.Type))
			if te.Field == "redis-version" && strings.HasPrefix(te.Value, "number") {
				msg += ` (quote the version, as in redis-version: "7.2": YAML reads an unquoted 7.10 as the number 7.1)`
			}
			return Settings{}, errors.New(msg)
		}
		return Settings{}, fmt.Errorf("lockvet settings: %w", err)
	}
	return s, nil
}

// settingNames lists the json names of Settings' fields, sorted.
func settingNames() []string {
	t := reflect.TypeFor[Settings]()
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// suggest returns the valid name k most likely meant ("redis_version",
// "redisVersion" → "redis-version"), or "".
func suggest(k string, valid []string) string {
	norm := func(s string) string {
		return strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(s))
	}
	for _, v := range valid {
		if norm(v) == norm(k) || norm(v) == norm(k)+"s" || norm(v)+"s" == norm(k) {
			return v
		}
	}
	return ""
}

func article(jsonKind string) string {
	switch {
	case jsonKind == "array":
		return "a list"
	case jsonKind == "object":
		return "a mapping"
	case jsonKind == "bool":
		return "a boolean"
	case strings.HasPrefix(jsonKind, "number"):
		return "a number"
	}
	return "a " + jsonKind
}

func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return "a list of strings"
		}
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	}
	return t.String()
}
