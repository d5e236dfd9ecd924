package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/lockvet/lockvet/internal/driver"
)

func TestParseFormatFlags(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		format string
	}{
		{nil, "text"},
		{[]string{"-json"}, "json"},
		{[]string{"-format", "json"}, "json"},
		{[]string{"-json", "-format=json"}, "json"},
		{[]string{"-format=sarif"}, "sarif"},
		{[]string{"-format", "codeclimate"}, "codeclimate"},
		{[]string{"-format=checkstyle", "-baseline", "b.json"}, "checkstyle"},
		{[]string{"-format", "github", "-baseline", "b.json", "-new-from-rev", "main"}, "github"},
		{[]string{"-write-baseline", "b.json", "-baseline", "b.json"}, "text"},
		{[]string{"-baseline", "b.json", "-fix"}, "text"},
	} {
		o, _, err := parseFlags(tc.args, io.Discard)
		if err != nil || o.format != tc.format {
			t.Errorf("parseFlags(%q): format %v, err %v; want %s", tc.args, o, err, tc.format)
		}
	}
	o, _, err := parseFlags([]string{"-baseline", "b.json", "-new-from-rev", "v1", "-sarif-suppressed=false"}, io.Discard)
	if err != nil || o.ci.baseline != "b.json" || o.ci.newFromRev != "v1" || o.ci.sarifSuppressed {
		t.Errorf("ci flags: %v", err)
	}
	o, _, err = parseFlags([]string{"-write-baseline", "w.json"}, io.Discard)
	if err != nil || o.ci.writeBaseline != "w.json" || !o.ci.sarifSuppressed {
		t.Errorf("ci flags: %v", err)
	}
}

// TestFormatFlagErrors: contradictory combinations exit 2 with a reason.
func TestFormatFlagErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"-format", "xml"}, `lockvet: -format "xml": want text, json, sarif, github, codeclimate or checkstyle`},
		{[]string{"-json", "-format", "sarif"}, "lockvet: -json and -format sarif contradict each other"},
		{[]string{"-format", "sarif", "-fix"}, "lockvet: -format sarif cannot be combined with -fix or -diff"},
		{[]string{"-format", "github", "-diff"}, "lockvet: -format github cannot be combined with -fix or -diff"},
		{[]string{"-json", "-fix"}, "lockvet: -json cannot be combined with -fix or -diff"},
		{[]string{"-write-baseline", "b.json", "-fix"}, "lockvet: -write-baseline cannot be combined with -fix or -diff"},
		{[]string{"-write-baseline", "b.json", "-new-from-rev", "HEAD"}, "lockvet: -write-baseline records every finding; it cannot be combined with -new-from-rev"},
	} {
		r := lockvet(t, exampleDir, tc.args...)
		r.WantCode(t, driver.ExitError)
		if !strings.HasPrefix(r.Stderr, tc.stderr) {
			t.Errorf("%q: stderr = %q, want prefix %q", tc.args, r.Stderr, tc.stderr)
		}
	}
}

var fenceRE = regexp.MustCompile("(?s)```(yaml|sh)\n(.*?)```")

// TestCIDoc: docs/ci.md's workflows are valid YAML with what code
// scanning needs, and every lockvet command line in it parses.
func TestCIDoc(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	var commands []string
	upload := false
	for _, m := range fenceRE.FindAllStringSubmatch(string(data), -1) {
		lang, body := m[1], m[2]
		if lang == "sh" {
			for line := range strings.Lines(body) {
				commands = append(commands, strings.TrimSpace(strings.SplitN(line, "#", 2)[0]))
			}
			continue
		}
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
			t.Errorf("YAML block does not parse: %v\n%s", err, body)
			continue
		}
		// A GitLab CI job: a top-level mapping with a script list.
		for _, v := range doc {
			job, _ := v.(map[string]any)
			script, _ := job["script"].([]any)
			for _, line := range script {
				if run, ok := line.(string); ok {
					commands = append(commands, run)
				}
			}
		}
		jobs, _ := doc["jobs"].(map[string]any)
		for _, job := range jobs {
			job := job.(map[string]any)
			perms, _ := job["permissions"].(map[string]any)
			steps, _ := job["steps"].([]any)
			for _, s := range steps {
				step := s.(map[string]any)
				if run, ok := step["run"].(string); ok {
					commands = append(commands, run)
				}
				if uses, _ := step["uses"].(string); strings.HasPrefix(uses, "github/codeql-action/upload-sarif@") {
					upload = true
					with, _ := step["with"].(map[string]any)
					if perms["security-events"] != "write" || with["sarif_file"] == nil || with["category"] == nil {
						t.Errorf("upload-sarif step without security-events: write, sarif_file or category: %v %v", perms, with)
					}
				}
			}
		}
	}
	if !upload {
		t.Error("no code scanning upload in docs/ci.md")
	}
	seen := map[string]bool{}
	for _, c := range commands {
		fields := strings.Fields(c)
		if len(fields) == 0 {
			continue
		}
		var args []string
		switch {
		case fields[0] == "lockvet":
			args = fields[1:]
		case len(fields) > 2 && fields[0] == "go" && fields[1] == "vet":
			seen["go vet"] = true
			continue
		default:
			continue
		}
		if i := slices.IndexFunc(args, func(a string) bool { return a == ">" || a == "|" }); i >= 0 {
			args = args[:i]
		}
		for i, a := range args {
			if strings.HasPrefix(a, "${{") {
				args[i] = "REV" // a workflow expression
			}
		}
		o, _, err := parseFlags(args, io.Discard)
		if err != nil {
			t.Errorf("docs/ci.md: %q does not parse: %v", c, err)
			continue
		}
		seen[o.format] = true
		if o.ci.baseline != "" || o.ci.writeBaseline != "" {
			seen["baseline"] = true
		}
		if o.ci.newFromRev != "" {
			seen["new-from-rev"] = true
		}
	}
	for _, want := range []string{"sarif", "github", "codeclimate", "checkstyle", "baseline", "new-from-rev", "go vet"} {
		if !seen[want] {
			t.Errorf("docs/ci.md shows no %s command", want)
		}
	}
}

// TestPreCommitHook: the hook runs the lockvet command on the module.
func TestPreCommitHook(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string   `yaml:"id"`
		Name          string   `yaml:"name"`
		Entry         string   `yaml:"entry"`
		Args          []string `yaml:"args"`
		Language      string   `yaml:"language"`
		PassFilenames *bool    `yaml:"pass_filenames"`
		Types         []string `yaml:"types"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 {
		t.Fatalf("%d hooks, want 1", len(hooks))
	}
	h := hooks[0]
	if h.ID != "lockvet" || h.Name == "" || h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames ||
		!slices.Equal(h.Types, []string{"go"}) {
		t.Errorf("hook = %+v", h)
	}
	// pre-commit installs the repository's commands with go install ./...:
	// the entry must be one of them.
	if _, err := os.Stat(filepath.Join("..", h.Entry, "main.go")); err != nil {
		t.Errorf("entry %q is not a command of this repository: %v", h.Entry, err)
	}
	if _, _, err := parseFlags(h.Args, io.Discard); err != nil {
		t.Errorf("args %q: %v", h.Args, err)
	}
}
